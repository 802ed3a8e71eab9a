package org.elasticam.shuffle.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SigningTest {

  private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private static FetchRequest fetch(String app) {
    return new FetchRequest(app, "exec-1", 3, new ReduceRange(2, 5), MapIdSet.of(1, 2, 3, 9));
  }

  @Test
  void theCanonicalFormIsTheContract() throws Exception {
    Map<String, String> p = fetch("application_1700000000000_0001").params(1_700_000_000_123L);
    String canonical = RequestSigner.canonical("GET", "/v1/fetch", p);
    assertEquals("EAS1\nGET\n/v1/fetch\napp=application_1700000000000_0001&exec=exec-1&maps=r1-3.9"
        + "&reduce=2-5&shuffle=3&ts=1700000000123\napplication_1700000000000_0001\n1700000000123", canonical);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
    String expected = "EAS1 " + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
    assertEquals(expected, RequestSigner.sign(SECRET, "GET", "/v1/fetch", p));
  }

  @Test
  void aSignatureHoldsForTheSameRequestHoweverItsQueryIsOrderedOrEscaped() {
    Map<String, String> p = fetch("application_1_1").params(5);
    String sig = RequestSigner.sign(SECRET, "GET", "/v1/fetch", p);
    Map<String, String> reordered = new LinkedHashMap<>();
    java.util.List<String> keys = new java.util.ArrayList<>(p.keySet());
    java.util.Collections.reverse(keys);
    keys.forEach(k -> reordered.put(k, p.get(k)));
    String wire = QueryString.format(reordered).replace("exec-1", "exec%2D1");
    assertTrue(RequestSigner.verify(SECRET, "GET", "/v1/fetch", QueryString.parse(wire), sig));
  }

  @Test
  void aWrongSecretAnotherAppATamperedQueryOrAnotherMethodFail() {
    Map<String, String> p = fetch("application_1_1").params(5);
    String sig = RequestSigner.sign(SECRET, "GET", "/v1/fetch", p);
    byte[] other = SECRET.clone();
    other[0] ^= 1;
    assertFalse(RequestSigner.verify(other, "GET", "/v1/fetch", p, sig));
    assertFalse(RequestSigner.verify(SECRET, "GET", "/v1/fetch", fetch("application_1_2").params(5), sig));
    Map<String, String> tampered = new LinkedHashMap<>(p);
    tampered.put(ShuffleProtocol.MAPS, "r1-4.9");
    assertFalse(RequestSigner.verify(SECRET, "GET", "/v1/fetch", tampered, sig));
    assertFalse(RequestSigner.verify(SECRET, "POST", "/v1/fetch", p, sig));
    assertFalse(RequestSigner.verify(SECRET, "GET", "/v1/fetch", p, null));
    assertFalse(RequestSigner.verify(SECRET, "GET", "/v1/fetch", p, "EAS1 !!!"));
    assertFalse(RequestSigner.verify(SECRET, "GET", "/v1/fetch", p, sig.substring(0, sig.length() - 2)));
  }

  @Test
  void queriesAreStrict() {
    assertEquals(Map.of("a", "b c", "d", ""), QueryString.parse("a=b%20c&d"));
    assertEquals("a%2Cb%2Fc", QueryString.encode("a,b/c"));
    for (String bad : new String[] {"a=1&a=2", "=x", "a=%", "a=%zz", "a=%C3%28", "a=\u00e9"}) {
      assertThrows(IllegalArgumentException.class, () -> QueryString.parse(bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> QueryString.parse("a=1&".repeat(20)));
  }

  @Test
  void requestsParseBackAndRefuseExtraMissingOrOverLongParameters() {
    FetchRequest f = fetch("application_1_1");
    Map<String, String> p = f.params(5);
    assertEquals(f, FetchRequest.fromParams(p));
    Map<String, String> extra = new LinkedHashMap<>(p);
    extra.put("x", "1");
    assertThrows(IllegalArgumentException.class, () -> FetchRequest.fromParams(extra));
    Map<String, String> missing = new LinkedHashMap<>(p);
    missing.remove(ShuffleProtocol.SHUFFLE);
    assertThrows(IllegalArgumentException.class, () -> FetchRequest.fromParams(missing));
    Map<String, String> longMaps = new LinkedHashMap<>(p);
    longMaps.put(ShuffleProtocol.MAPS, "r" + "1".repeat(ShuffleProtocol.MAX_MAPS_CHARS));
    assertThrows(RequestTooLongException.class, () -> FetchRequest.fromParams(longMaps));
    for (String badExec : new String[] {"..", "a/b", "", "x".repeat(65)}) {
      assertThrows(IllegalArgumentException.class, () -> new FetchRequest("application_1_1", badExec, 0,
          ReduceRange.of(0), MapIdSet.of(0)), badExec);
    }
    RegisterRequest reg = new RegisterRequest("application_1_1", "e1", java.util.List.of("/a/b", "/c"));
    assertEquals(reg, RegisterRequest.fromParams(reg.params(9)));
    assertThrows(IllegalArgumentException.class, () -> new RegisterRequest("application_1_1", "e1",
        java.util.List.of("relative/dir")));
  }

  @Test
  void theDerivedShuffleSecretIsStableAndDiffersFromTheAppSecret() {
    byte[] d = RequestSigner.deriveShuffleSecret(SECRET);
    assertEquals(32, d.length);
    assertEquals(Base64.getEncoder().encodeToString(d),
        Base64.getEncoder().encodeToString(RequestSigner.deriveShuffleSecret(SECRET)));
    assertFalse(java.util.Arrays.equals(SECRET, d));
  }
}
