package org.elasticam.am.job;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.elasticam.engine.job.DagPlan;

/**
 * {@code wordcount --input P --output P [--reducers N] [--pause-ms N]}: one map task per block of
 * every input file (hidden files, starting with {@code .} or {@code _}, are skipped), preferring
 * the block's hosts; the words shuffled to {@code --reducers} reduce tasks, each writing
 * {@code part-NNNNN} of {@code word<TAB>count} lines in byte order of the words. {@code --pause-ms}
 * holds the reduce stage back that long after the maps finish (a gap in which idle executors go).
 */
public final class WordCountPlan {

  public static final String MAP_TASK = "org.elasticam.executor.tasks.WordCountMapTask";
  public static final String REDUCE_TASK = "org.elasticam.executor.tasks.WordCountReduceTask";

  private WordCountPlan() {}

  /**
   * The job's stages; a missing or empty input or an existing output is the user's mistake.
   *
   * @throws IllegalArgumentException one line for the user
   */
  public static DagPlan plan(JobSpec spec, Configuration conf) throws IOException {
    int reducers = spec.positive("reducers", 2);
    Path input = new Path(spec.required("input"));
    Path output = new Path(spec.required("output"));
    FileSystem inFs = input.getFileSystem(conf);
    FileSystem outFs = output.getFileSystem(conf);
    input = inFs.makeQualified(input);
    output = outFs.makeQualified(output);
    if (outFs.exists(output)) {
      throw new IllegalArgumentException("the output " + output + " exists already: remove it or name another");
    }
    Stage.Builder map = Stage.builder(0, "wordcount map", MAP_TASK).writesShuffle(reducers);
    int splits = 0;
    for (LocatedFileStatus f : files(inFs, input)) {
      for (BlockLocation b : blocks(f)) {
        map.task(new TaskSpec(Map.of("path", f.getPath().toString(), "start", String.valueOf(b.getOffset()),
            "length", String.valueOf(b.getLength())), hosts(b)));
        splits++;
      }
    }
    if (splits == 0) {
      throw new IllegalArgumentException("the input " + input + " has no data to count");
    }
    Stage.Builder reduce = Stage.builder(1, "wordcount reduce", REDUCE_TASK).parents(0);
    for (int r = 0; r < reducers; r++) {
      reduce.task(TaskSpec.of(Map.of("output", output.toString())));
    }
    return new DagPlan(List.of(map.build(), reduce.build()), Map.of(1, spec.nonNegative("pause-ms", 0)));
  }

  private static List<LocatedFileStatus> files(FileSystem fs, Path input) throws IOException {
    List<LocatedFileStatus> out = new ArrayList<>();
    FileStatus top;
    try {
      top = fs.getFileStatus(input);
    } catch (FileNotFoundException e) {
      throw new IllegalArgumentException("the input " + input + " does not exist");
    }
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(input, true);
    while (it.hasNext()) {
      LocatedFileStatus f = it.next();
      if (f.getLen() > 0 && (top.isFile() || visible(input, f.getPath()))) {
        out.add(f);
      }
    }
    // By URI, as Path orders itself: Path.compareTo's signature differs between Hadoop 3.1 and 3.4.
    out.sort((a, b) -> a.getPath().toUri().compareTo(b.getPath().toUri()));
    return out;
  }

  /** No component below the input dir starts with '.' or '_' (as MapReduce's input formats skip them). */
  private static boolean visible(Path root, Path p) {
    for (Path q = p; q != null && !q.equals(root); q = q.getParent()) {
      String n = q.getName();
      if (n.startsWith(".") || n.startsWith("_")) {
        return false;
      }
    }
    return true;
  }

  private static List<BlockLocation> blocks(LocatedFileStatus f) {
    BlockLocation[] b = f.getBlockLocations();
    if (b == null || b.length == 0) {
      return List.of(new BlockLocation(new String[0], new String[0], 0, f.getLen()));
    }
    return Arrays.asList(b);
  }

  private static List<String> hosts(BlockLocation b) {
    try {
      return Arrays.stream(b.getHosts()).filter(h -> !h.isBlank() && !h.equals("localhost")).distinct().toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
