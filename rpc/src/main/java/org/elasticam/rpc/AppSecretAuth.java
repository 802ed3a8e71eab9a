package org.elasticam.rpc;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.elasticam.time.Clock;

/**
 * Authentication of control-plane calls with the application's secret, which only the AM and the
 * application's containers hold (it travels in the application's YARN credentials). A call carries
 * {@code x-elasticam-auth: v1:<epoch ms>:<hex HMAC-SHA256(secret, "v1:" + ms + ":" + method)>};
 * the server recomputes it, compares in constant time and refuses stale timestamps, so the secret
 * itself never crosses the wire and a captured header cannot be replayed for long or on another
 * method.
 */
public final class AppSecretAuth {

  /** The name of the secret key in the application's YARN credentials. */
  public static final String CREDENTIALS_KEY = "elasticam.app.secret";

  public static final Metadata.Key<String> HEADER =
      Metadata.Key.of("x-elasticam-auth", Metadata.ASCII_STRING_MARSHALLER);

  /** How far a caller's clock may be from ours; containers' clocks are NTP-synced, mostly. */
  public static final long MAX_SKEW_MS = 5 * 60_000L;

  private static final String VERSION = "v1";

  private AppSecretAuth() {}

  /** The header value for a call to {@code method} at {@code nowMs}. */
  public static String token(byte[] secret, String method, long nowMs) {
    return VERSION + ":" + nowMs + ":" + HexFormat.of().formatHex(mac(secret, VERSION + ":" + nowMs + ":" + method));
  }

  /** Why {@code header} does not authenticate a call to {@code method}, or null when it does. */
  public static String refusal(byte[] secret, String method, String header, long nowMs) {
    if (header == null) {
      return "no authentication header";
    }
    String[] parts = header.split(":", -1);
    if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].length() != 64) {
      return "malformed authentication header";
    }
    long ts;
    byte[] given;
    try {
      ts = Long.parseLong(parts[1]);
      given = HexFormat.of().parseHex(parts[2]);
    } catch (IllegalArgumentException e) {
      return "malformed authentication header";
    }
    if (Math.abs(nowMs - ts) > MAX_SKEW_MS) {
      return "stale authentication header (clock skew over " + MAX_SKEW_MS / 1000 + " s)";
    }
    byte[] expected = mac(secret, VERSION + ":" + ts + ":" + method);
    return MessageDigest.isEqual(expected, given) ? null : "wrong application secret";
  }

  /** Client side: signs every call. */
  public static CallCredentials credentials(byte[] secret, Clock clock) {
    byte[] key = secret.clone();
    return new CallCredentials() {
      @Override
      public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        headers.put(HEADER, token(key, info.getMethodDescriptor().getFullMethodName(), clock.nowMs()));
        applier.apply(headers);
      }
    };
  }

  /**
   * Server side: refuses unauthenticated calls with UNAUTHENTICATED before any message is read.
   *
   * @param onRefused told the reason and the caller's address, for the log
   */
  public static ServerInterceptor interceptor(byte[] secret, Clock clock, Consumer<String> onRefused) {
    byte[] key = secret.clone();
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        String why = refusal(key, call.getMethodDescriptor().getFullMethodName(), headers.get(HEADER), clock.nowMs());
        if (why == null) {
          return next.startCall(call, headers);
        }
        onRefused.accept(why + " from " + call.getAttributes().get(io.grpc.Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        call.close(Status.UNAUTHENTICATED.withDescription(why), new Metadata());
        return new ServerCall.Listener<>() {};
      }
    };
  }

  private static byte[] mac(byte[] secret, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
