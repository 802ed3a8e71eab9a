package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elasticam.shuffle.protocol.ShuffleProtocol;
import org.elasticam.shuffle.service.state.StateStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Hostile input never crashes the pipeline, never escapes as an exception, never leaks (the leak
 * check runs after each test), and every answer is one of the protocol's statuses. Jazzer runs
 * the inputs under src/test/resources/.../HostileRequestFuzzTestInputs in every build (regression
 * mode) and fuzzes for real, bounded by maxDuration, with {@code -Pfuzz}.
 */
class HostileRequestFuzzTest {

  private static final Set<Integer> STATUSES = Set.of(200, 400, 401, 403, 404, 405, 414, 429, 431, 500, 503);
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

  private static Path dir;
  private static ServiceFixture fixture;
  private static ServerContext context;

  @BeforeAll
  static void setUp() throws Exception {
    dir = Files.createTempDirectory("shuffle-fuzz");
    fixture = new ServiceFixture(dir, StateStore.none());
    context = fixture.context(ServerSettings.loopback(), ServiceFixture.direct(), false);
  }

  @AfterAll
  static void tearDown() throws Exception {
    try (var all = Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Arbitrary bytes, possibly split across two reads. */
  @FuzzTest(maxDuration = "60s")
  void rawBytes(FuzzedDataProvider data) {
    byte[] first = data.consumeBytes(data.consumeInt(0, 8192));
    byte[] second = data.consumeRemainingAsBytes();
    try (Pipe p = new Pipe(context)) {
      p.feed(first);
      check(p, p.feed(second));
    }
  }

  /** Well-framed, correctly signed requests with hostile parameters: reaches parsing, auth and file resolution. */
  @FuzzTest(maxDuration = "60s")
  void signedRequestsWithHostileParameters(FuzzedDataProvider data) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put(ShuffleProtocol.APP, data.consumeBoolean() ? ServiceFixture.APP : data.consumeString(40));
    params.put(ShuffleProtocol.EXEC, data.consumeBoolean() ? "e1" : data.consumeString(70));
    params.put(ShuffleProtocol.SHUFFLE, data.consumeString(12));
    params.put(ShuffleProtocol.REDUCE, data.consumeString(24));
    params.put(ShuffleProtocol.MAPS, data.consumeString(data.consumeInt(0, 4000)));
    params.put(ShuffleProtocol.TS, Long.toString(System.currentTimeMillis()));
    if (data.consumeBoolean()) {
      params.put(data.consumeString(8), data.consumeString(8));
    }
    String method = data.consumeBoolean() ? "GET" : "POST";
    String path = data.pickValue(new String[] {ShuffleProtocol.FETCH_PATH, ShuffleProtocol.REGISTER_PATH,
        ShuffleProtocol.REMOVE_SHUFFLE_PATH});
    if (path.equals(ShuffleProtocol.REMOVE_SHUFFLE_PATH) && data.consumeBoolean()) {
      // The removal's own three parameters, so it gets past the shape check to auth and the disk.
      params.keySet().retainAll(java.util.Set.of(ShuffleProtocol.APP, ShuffleProtocol.SHUFFLE, ShuffleProtocol.TS));
    }
    String raw = Raw.request(method, path, params, fixture.secret, data.consumeBoolean());
    try (Pipe p = new Pipe(context)) {
      check(p, p.feed(raw.getBytes(StandardCharsets.UTF_8)));
    }
  }

  private static void check(Pipe p, byte[] written) {
    p.channel.checkException();
    Matcher m = STATUS.matcher(new String(written, StandardCharsets.ISO_8859_1));
    while (m.find()) {
      int status = Integer.parseInt(m.group(1));
      assertTrue(STATUSES.contains(status), "unexpected status " + status);
    }
  }
}
