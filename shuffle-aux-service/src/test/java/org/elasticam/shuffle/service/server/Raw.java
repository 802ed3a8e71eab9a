package org.elasticam.shuffle.service.server;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.QueryString;
import org.elasticam.shuffle.protocol.RegisterRequest;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.protocol.ShuffleProtocol;

/** Raw HTTP for tests: signed request text, and responses split out of the bytes a server wrote. */
final class Raw {

  private Raw() {}

  static String fetch(FetchRequest r, byte[] secret, long ts, boolean keepAlive) {
    return request("GET", ShuffleProtocol.FETCH_PATH, r.params(ts), secret, keepAlive);
  }

  static String register(RegisterRequest r, byte[] secret, long ts) {
    return request("POST", ShuffleProtocol.REGISTER_PATH, r.params(ts), secret, true);
  }

  static String request(String method, String path, Map<String, String> params, byte[] secret, boolean keepAlive) {
    String sig = secret == null ? null : RequestSigner.sign(secret, method, path, params);
    return method + " " + path + "?" + QueryString.format(params) + " HTTP/1.1\r\nHost: t\r\n"
        + (sig == null ? "" : ShuffleProtocol.SIGNATURE_HEADER + ": " + sig + "\r\n")
        + (method.equals("POST") ? "Content-Length: 0\r\n" : "")
        + (keepAlive ? "" : "Connection: close\r\n") + "\r\n";
  }

  /** One parsed response. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8).trim();
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The blocks of a 200 fetch body, each checked against its CRC32C. */
    List<byte[]> blocks() {
      List<byte[]> out = new ArrayList<>();
      ByteBuffer b = ByteBuffer.wrap(body);
      while (b.hasRemaining()) {
        BlockHeader h = BlockHeader.readFrom(b);
        byte[] data = new byte[(int) h.length()];
        b.get(data);
        CRC32C c = new CRC32C();
        c.update(data);
        if ((int) c.getValue() != h.crc32c()) {
          throw new AssertionError("block " + h + " fails its checksum");
        }
        out.add(data);
      }
      return out;
    }
  }

  /** Every complete response in {@code bytes}, in order (Content-Length framed). */
  static List<Response> parse(byte[] bytes) {
    List<Response> out = new ArrayList<>();
    int at = 0;
    while (at < bytes.length) {
      int end = indexOf(bytes, at, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      if (end < 0) {
        break;
      }
      String[] lines = new String(bytes, at, end - at, StandardCharsets.ISO_8859_1).split("\r\n");
      Map<String, String> headers = new HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int c = lines[i].indexOf(':');
        headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
      }
      int len = Integer.parseInt(headers.getOrDefault("content-length", "0"));
      int bodyStart = end + 4;
      if (bodyStart + len > bytes.length) {
        break;
      }
      byte[] body = java.util.Arrays.copyOfRange(bytes, bodyStart, bodyStart + len);
      out.add(new Response(Integer.parseInt(lines[0].split(" ")[1]), headers, body));
      at = bodyStart + len;
    }
    return out;
  }

  /** Where {@code needle} first occurs in {@code a}, or -1. */
  static int indexOf(byte[] a, byte[] needle) {
    return indexOf(a, 0, needle);
  }

  private static int indexOf(byte[] a, int from, byte[] needle) {
    outer:
    for (int i = from; i <= a.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (a[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static byte[] concat(List<byte[]> parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    parts.forEach(out::writeBytes);
    return out.toByteArray();
  }
}
