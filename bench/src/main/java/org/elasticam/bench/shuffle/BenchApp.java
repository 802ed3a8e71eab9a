package org.elasticam.bench.shuffle;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.elasticam.shuffle.layout.ShuffleLayout;

/**
 * Where the benchmark's applications keep their map outputs, under one NodeManager local dir
 * {@code <work>/nm-local}: each dataset is one application, whose output is laid out three ways
 * over the same bytes (hard links of one data file per map):
 *
 * <pre>
 * ours:       usercache/&lt;user&gt;/appcache/&lt;app&gt;/elasticam-shuffle/s0/&lt;xx&gt;/map-&lt;m&gt;.{data,index}
 * MapReduce:  usercache/&lt;user&gt;/appcache/&lt;app&gt;/output/&lt;attempt&gt;/file.out{,.index}
 * sendfile:   &lt;work&gt;/raw/&lt;size&gt;/map-&lt;m&gt;.data   (block r at offset r x size)
 * </pre>
 */
public final class BenchApp {

  public static final long CLUSTER_TIMESTAMP = 1_700_000_000_000L;
  public static final String EXECUTOR_ID = "e1";
  public static final int SHUFFLE_ID = 0;

  private BenchApp() {}

  /** The user the NodeManager would run the containers as: whoever runs the benchmark. */
  public static String user() {
    return System.getProperty("user.name");
  }

  public static Path nmLocal(Path work) {
    return work.resolve("nm-local");
  }

  public static Path appCacheDir(Path work, Shape s) {
    return nmLocal(work).resolve("usercache").resolve(user()).resolve("appcache").resolve(s.appId());
  }

  /** The executor's application-level local dirs, as it registers them. */
  public static List<Path> executorDirs(Path work, Shape s) {
    return List.of(appCacheDir(work, s));
  }

  public static Path oursData(Path work, Shape s, int map) {
    return ShuffleLayout.dataFile(executorDirs(work, s), SHUFFLE_ID, map);
  }

  public static Path oursIndex(Path work, Shape s, int map) {
    return ShuffleLayout.indexFile(executorDirs(work, s), SHUFFLE_ID, map);
  }

  public static JobID jobId(Shape s) {
    return new JobID(Long.toString(CLUSTER_TIMESTAMP), s.index());
  }

  /** The attempt id MapReduce gives map {@code m}'s first attempt: {@code attempt_<ts>_<job>_m_<m>_0}. */
  public static String attemptId(Shape s, int map) {
    return new TaskAttemptID(new TaskID(jobId(s), TaskType.MAP, map), 0).toString();
  }

  public static Path hadoopDir(Path work, Shape s, int map) {
    return appCacheDir(work, s).resolve("output").resolve(attemptId(s, map));
  }

  public static Path hadoopData(Path work, Shape s, int map) {
    return hadoopDir(work, s, map).resolve("file.out");
  }

  public static Path hadoopIndex(Path work, Shape s, int map) {
    return hadoopDir(work, s, map).resolve("file.out.index");
  }

  public static Path rawData(Path work, Shape s, int map) {
    return work.resolve("raw").resolve(s.key()).resolve("map-" + map + ".data");
  }

  /** CRC32C of every block, map-major: what every client checks each received block against. */
  public static Path manifest(Path work, Shape s) {
    return work.resolve("manifest-" + s.key() + ".crc");
  }

  /** Our application's shuffle secret (what the AM derives and ships in service data). */
  public static Path oursSecret(Path work) {
    return work.resolve("elasticam-shuffle.secret");
  }

  /** MapReduce's shuffle key (what JobSubmitter generates and the AM turns into the shuffle token). */
  public static Path hadoopShuffleKey(Path work) {
    return work.resolve("mapreduce-shuffle.key");
  }
}
