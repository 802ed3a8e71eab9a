package org.elasticam.shuffle.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Query strings, strictly: every parameter once, percent-escapes well formed, UTF-8 valid. The
 * canonical form (keys sorted, values escaped the one RFC 3986 way) is what {@link RequestSigner}
 * signs, so two spellings of one request sign alike.
 */
public final class QueryString {

  /** Most parameters a request may carry; more is malformed. */
  public static final int MAX_PARAMS = 16;

  private QueryString() {}

  /**
   * @param raw the part after {@code ?}, possibly empty
   * @return the decoded parameters, in the order given
   * @throws IllegalArgumentException on a repeated key, a bad escape, invalid UTF-8, an empty key
   */
  public static Map<String, String> parse(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    String[] pairs = raw.split("&", -1);
    if (pairs.length > MAX_PARAMS) {
      throw new IllegalArgumentException("more than " + MAX_PARAMS + " query parameters");
    }
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (key.isEmpty()) {
        throw new IllegalArgumentException("empty query parameter name");
      }
      if (out.put(key, value) != null) {
        throw new IllegalArgumentException("query parameter given twice: " + ShuffleIds.shorten(key));
      }
    }
    return out;
  }

  /** Keys sorted, {@code k=v} joined by {@code &}, both escaped canonically. */
  public static String canonical(Map<String, String> params) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(encode(e.getKey())).append('=').append(encode(e.getValue()));
    }
    return sb.toString();
  }

  /** In the given order: what a client puts on the wire. */
  public static String format(Map<String, String> params) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : params.entrySet()) {
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(encode(e.getKey())).append('=').append(encode(e.getValue()));
    }
    return sb.toString();
  }

  /** RFC 3986: unreserved characters as they are, every other UTF-8 byte as %XX (upper case). */
  public static String encode(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
          || c == '_' || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return sb.toString();
  }

  /** Percent-decoding; {@code +} stays a plus (this is not a form). */
  public static String decode(String s) {
    if (s.indexOf('%') < 0) {
      if (!s.chars().allMatch(c -> c <= 0x7f)) {
        throw new IllegalArgumentException("non-ASCII character in the query");
      }
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '%') {
        if (c > 0x7f) {
          throw new IllegalArgumentException("non-ASCII character in the query");
        }
        out.write(c);
        continue;
      }
      if (i + 2 >= s.length()) {
        throw new IllegalArgumentException("truncated percent-escape");
      }
      int hi = Character.digit(s.charAt(i + 1), 16);
      int lo = Character.digit(s.charAt(i + 2), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("bad percent-escape");
      }
      out.write(hi << 4 | lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("query is not valid UTF-8");
    }
  }
}
