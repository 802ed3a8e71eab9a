package org.elasticam.shuffle.protocol;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Request signing (DESIGN §2 contract): {@code HMAC-SHA256(secret, canonical)} where canonical is
 *
 * <pre>
 * EAS1 \n METHOD \n path \n canonical query \n appId \n ts
 * </pre>
 *
 * the canonical query being every parameter (including {@code app} and {@code ts}) sorted by
 * name and escaped the one RFC 3986 way ({@link QueryString#canonical}). The header carries
 * {@code EAS1 <base64url, no padding>}. Verification recomputes and compares in constant time;
 * the timestamp's age is the caller's check, so replays are bounded by that window.
 */
public final class RequestSigner {

  public static final String SCHEME = "EAS1";
  private static final String ALGORITHM = "HmacSHA256";

  private RequestSigner() {}

  /** The header value for a request with these parameters ({@code app} and {@code ts} among them). */
  public static String sign(byte[] secret, String method, String path, Map<String, String> params) {
    return SCHEME + " " + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(secret, canonical(method, path, params)));
  }

  /** True when {@code header} is this request's signature under {@code secret}; constant time. */
  public static boolean verify(byte[] secret, String method, String path, Map<String, String> params, String header) {
    if (header == null || !header.startsWith(SCHEME + " ")) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(header.substring(SCHEME.length() + 1).trim());
    } catch (IllegalArgumentException e) {
      return false;
    }
    byte[] expected = mac(secret, canonical(method, path, params));
    return MessageDigest.isEqual(expected, given);
  }

  /** The signed text; public so that other implementations can be checked against it. */
  public static String canonical(String method, String path, Map<String, String> params) {
    String app = params.getOrDefault(ShuffleProtocol.APP, "");
    String ts = params.getOrDefault(ShuffleProtocol.TS, "");
    return String.join("\n", SCHEME, method, path, QueryString.canonical(params), app, ts);
  }

  private static byte[] mac(byte[] secret, String text) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(secret, ALGORITHM));
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /**
   * The shuffle key an application hands the NodeManagers, derived from its application secret:
   * {@code HMAC-SHA256(appSecret, "elasticam shuffle v1")}. The NodeManager (and its recovery
   * store) then never holds the secret that also guards the control plane.
   */
  public static byte[] deriveShuffleSecret(byte[] appSecret) {
    return mac(appSecret, "elasticam shuffle v1");
  }
}
