package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A user job on typed records through the real shuffle: maps write {@code (Long key, Long value)}
 * with {@code Serdes.LONG}, reducers group them with {@code KeyGroups} and sum. The sums must equal
 * an independent computation of the same records, and every reducer must see its keys in numeric
 * order, negative ones first: the encoding's byte order survives the map-side sort, the serving
 * and the reduce-side merge. And a total sort: a range partitioner cut from a sample of the keys,
 * a descending key order and a combiner of counts, all from the user jar or built in, whose
 * reducers' outputs, concatenated in partition order, are every key once, largest first, with its
 * count.
 */
@Timeout(300)
class TypedShuffleIT {

  private static final int MAPS = 4;
  private static final int RECORDS_PER_MAP = 5_000;
  private static final int REDUCERS = 3;
  private static ItCluster it;

  /**
   * The reduce task both jobs run: each key's values summed, one {@code key,sum} line a key in the
   * order it sees them, committed as {@code part-N} in the directory of its parameter {@code out}.
   */
  private static final String ADD = String.join("\n",
      "  public static class Add implements Task {",
      "    public void run(TaskContext ctx) throws Exception {",
      "      KeyGroups<Long, Long> groups = KeyGroups.of(ctx.shuffleInput(0), Serdes.LONG, Serdes.LONG);",
      "      StringBuilder lines = new StringBuilder();",
      "      while (groups.next()) {",
      "        long sum = 0;",
      "        for (long v : groups.values()) sum += v;",
      "        lines.append(groups.key()).append(',').append(sum).append('\\n');",
      "      }",
      "      Path tmp = Paths.get(ctx.params().get(\"out\"), \"part-\" + ctx.partition() + \".\" + ctx.attempt());",
      "      Files.write(tmp, lines.toString().getBytes(\"UTF-8\"));",
      "      if (ctx.canCommit()) Files.move(tmp, Paths.get(ctx.params().get(\"out\"), \"part-\" + ctx.partition()),",
      "          StandardCopyOption.ATOMIC_MOVE);",
      "    }",
      "  }");

  /**
   * A user jar of the job {@code it.user.<name>}: {@code body} is what its class declares, besides
   * the reduce task {@link #ADD}.
   */
  private static Path userJob(String name, String... body) throws java.io.IOException {
    List<String> source = new ArrayList<>(List.of("package it.user;", "import java.nio.file.*;", "import java.util.*;",
        "import org.elasticam.api.*;", "public class " + name + " implements Job {"));
    source.addAll(List.of(body));
    source.add(ADD);
    source.add("}");
    return UserJobJar.build(Path.of("target", "typed-shuffle"), name.toLowerCase(java.util.Locale.ROOT) + ".jar",
        Map.of(name, String.join("\n", source)));
  }

  /** One record's key or value, from its map and its index in the map. */
  private interface Generator {
    long of(int map, int index);
  }

  /** Per key, the sum of the values of every map's records. */
  private static TreeMap<Long, Long> sums(Generator key, Generator value) {
    TreeMap<Long, Long> sums = new TreeMap<>();
    for (int m = 0; m < MAPS; m++) {
      for (int i = 0; i < RECORDS_PER_MAP; i++) {
        sums.merge(key.of(m, i), value.of(m, i), Long::sum);
      }
    }
    return sums;
  }

  private static ItCluster.ClientRun submit(Path jar, String jobClass, Path out) {
    ItCluster.ClientRun run = it.client("submit",
        "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=256m",
        "--jar", jar.toString(), "--class", jobClass, out.toString());
    assertEquals(0, run.exitCode(), run.out() + run.err());
    return run;
  }

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("typed-shuffle", s -> s.withNodeManagers(2));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  /** The records map {@code m} writes: keys -50..49 from a generator both sides share. */
  private static long key(int m, int i) {
    return Math.floorMod(m * 7_919L + i * 31L, 100) - 50;
  }

  @Test
  void groupBySumOverTypedRecordsIsExactAndInKeyOrder() throws Exception {
    Path out = Files.createDirectories(Path.of("target", "typed-shuffle", "out")).toAbsolutePath();
    Path jar = userJob("Sum",
        "  public List<Stage> stages(String[] args) {",
        "    Stage.Builder map = Stage.builder(0, \"emit\", Emit.class).writesShuffle(" + REDUCERS + ");",
        "    for (int m = 0; m < " + MAPS + "; m++) map.task(TaskSpec.of(Map.of(\"map\", String.valueOf(m))));",
        "    Stage.Builder reduce = Stage.builder(1, \"sum\", Add.class).parents(0);",
        "    for (int r = 0; r < " + REDUCERS + "; r++) reduce.task(TaskSpec.of(Map.of(\"out\", args[0])));",
        "    return List.of(map.build(), reduce.build());",
        "  }",
        "  public static class Emit implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      int m = Integer.parseInt(ctx.params().get(\"map\"));",
        "      TypedShuffleOutput<Long, Long> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.LONG, Serdes.LONG);",
        "      Counter emitted = ctx.counter(\"emitted\");",
        "      for (int i = 0; i < " + RECORDS_PER_MAP + "; i++) {",
        "        out.write(Math.floorMod(m * 7919L + i * 31L, 100L) - 50L, (long) i);",
        "        emitted.increment();",
        "      }",
        "    }",
        "  }");
    ItCluster.ClientRun run = submit(jar, "it.user.Sum", out);

    Map<Long, Long> expected = sums(TypedShuffleIT::key, (m, i) -> i);
    Map<Long, Long> got = new TreeMap<>();
    for (int r = 0; r < REDUCERS; r++) {
      List<Long> keys = new ArrayList<>();
      for (String line : Files.readAllLines(out.resolve("part-" + r))) {
        String[] kv = line.split(",");
        long k = Long.parseLong(kv[0]);
        keys.add(k);
        assertEquals(null, got.put(k, Long.parseLong(kv[1])), "key " + k + " reached one reducer once");
      }
      List<Long> sorted = new ArrayList<>(keys);
      sorted.sort(null);
      assertEquals(sorted, keys, "reducer " + r + " saw its keys in numeric order");
    }
    assertEquals(expected, got);

    // The event log counts what went through the shuffle: the reducers read every record the maps wrote.
    List<JsonNode> events = it.events(run.appId());
    Map<Integer, JsonNode> counters = new TreeMap<>();
    for (JsonNode done : ItCluster.ofType(events, "stage_completed")) {
      counters.put(done.path("stage_id").asInt(), done.path("counters"));
    }
    JsonNode emit = counters.get(0);
    JsonNode sum = counters.get(1);
    assertEquals(MAPS * RECORDS_PER_MAP, emit.path("shuffle.records.written").asLong(), emit.toString());
    assertEquals(MAPS * RECORDS_PER_MAP, emit.path("emitted").asLong(), emit.toString());
    assertEquals(emit.path("shuffle.records.written").asLong(), sum.path("shuffle.records.read").asLong(),
        sum.toString());
    assertEquals(emit.path("shuffle.bytes.written").asLong(), sum.path("shuffle.bytes.read").asLong(), sum.toString());
    assertTrue(emit.path("shuffle.bytes.written").asLong() > 0);
    assertEquals(List.of(), ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("status").asText().equals("SUCCESS") && !e.has("counters")).toList(),
        "every successful attempt reports its counters");
  }

  /** The key of the sort's map {@code m}'s record {@code i}: 0..999, each five times a map. */
  private static long sortKey(int m, int i) {
    return Math.floorMod(m * 104_729L + i * 7_919L, 1_000L);
  }

  @Test
  void aRangePartitionedDescendingCombinedSortIsOneOrderAcrossTheReducers() throws Exception {
    Path out = Files.createDirectories(Path.of("target", "typed-shuffle", "sorted")).toAbsolutePath();
    Path jar = userJob("Sort",
        "  static long key(int m, int i) { return Math.floorMod(m * 104729L + i * 7919L, 1000L); }",
        "  public List<Stage> stages(String[] args) {",
        "    List<byte[]> sample = new ArrayList<>();",
        "    for (int m = 0; m < " + MAPS + "; m++) for (int i = 0; i < " + RECORDS_PER_MAP + "; i += 50) {",
        "      sample.add(Serdes.LONG.encode(key(m, i)));",
        "    }",
        "    Stage.Builder map = Stage.builder(0, \"emit\", Emit.class).writesShuffle(" + REDUCERS + ")",
        "        .keyOrder(Largest.class).combiner(Count.class)",
        "        .partitioner(RangePartitioner.class, RangePartitioner.fromSample(sample, " + REDUCERS
            + ", new Largest()));",
        "    for (int m = 0; m < " + MAPS + "; m++) map.task(TaskSpec.of(Map.of(\"map\", String.valueOf(m))));",
        "    Stage.Builder reduce = Stage.builder(1, \"count\", Add.class).parents(0);",
        "    for (int r = 0; r < " + REDUCERS + "; r++) reduce.task(TaskSpec.of(Map.of(\"out\", args[0])));",
        "    return List.of(map.build(), reduce.build());",
        "  }",
        "  public static class Largest implements KeyOrder {",
        "    public int compare(byte[] a, byte[] b) { return Arrays.compareUnsigned(b, a); }",
        "  }",
        "  public static class Count extends ReducingCombiner<Long> {",
        "    public Count() { super(Serdes.LONG); }",
        "    protected Long reduce(Long a, Long b) { return a + b; }",
        "  }",
        "  public static class Emit implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      int m = Integer.parseInt(ctx.params().get(\"map\"));",
        "      TypedShuffleOutput<Long, Long> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.LONG, Serdes.LONG);",
        "      for (int i = 0; i < " + RECORDS_PER_MAP + "; i++) out.write(key(m, i), 1L);",
        "    }",
        "  }");
    submit(jar, "it.user.Sort", out);

    TreeMap<Long, Long> counts = sums(TypedShuffleIT::sortKey, (m, i) -> 1);
    List<String> expected = new ArrayList<>();
    counts.descendingMap().forEach((k, n) -> expected.add(k + "," + n));
    List<String> got = new ArrayList<>();
    for (int r = 0; r < REDUCERS; r++) {
      List<String> part = Files.readAllLines(out.resolve("part-" + r));
      assertTrue(part.size() > expected.size() / REDUCERS / 2, "the sample spread the keys: reducer " + r + " got "
          + part.size());
      got.addAll(part);
    }
    assertEquals(expected, got, "the parts in order are every key once, largest first, with its count");
  }
}
