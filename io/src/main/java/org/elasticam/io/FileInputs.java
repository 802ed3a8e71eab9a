package org.elasticam.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.elasticam.api.TaskSpec;

/**
 * Input files as tasks: one {@link TaskSpec} per split, preferring the hosts of the block the split
 * starts in. Paths are files, directories (read recursively; names starting with {@code .} or
 * {@code _} below them are skipped, as MapReduce skips them) or globs, on any Hadoop file system;
 * relative ones resolve as {@link JobPaths} says. Empty files give no task; a compressed file
 * (by its suffix, as Hadoop's codecs name them) is one split.
 *
 * <pre>{@code
 * Stage.builder(0, "parse", Parse.class).writesShuffle(8)
 *     .tasks(FileInputs.of(args[1]).taskSpecs())
 * }</pre>
 */
public final class FileInputs {

  /** A split may be this much longer than the split size, so that no split is a sliver (as MapReduce's slop). */
  static final double SLOP = 1.1;

  private final List<String> paths;
  private long splitBytes;
  private Configuration conf;
  private final Map<String, String> params = new LinkedHashMap<>();

  private FileInputs(List<String> paths) {
    this.paths = List.copyOf(paths);
  }

  /** @param paths files, directories or globs: at least one */
  public static FileInputs of(String... paths) {
    if (paths.length == 0) {
      throw new IllegalArgumentException("no input paths");
    }
    return new FileInputs(Arrays.asList(paths));
  }

  public static FileInputs of(List<String> paths) {
    return of(paths.toArray(new String[0]));
  }

  /** The target split size; by default each file's block size (one task per block). */
  public FileInputs splitBytes(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("a split size must be > 0, got " + bytes);
    }
    this.splitBytes = bytes;
    return this;
  }

  /** A parameter every task gets beside its split (for example which of two inputs it reads). */
  public FileInputs param(String name, String value) {
    if (name.startsWith("input.")) {
      throw new IllegalArgumentException("parameter names starting with 'input.' are the split's own: " + name);
    }
    params.put(name, value);
    return this;
  }

  /** The Hadoop configuration to reach the file systems with; by default the classpath's. */
  public FileInputs conf(Configuration conf) {
    this.conf = conf;
    return this;
  }

  /** The input's splits, in path order then offset order. */
  public List<FileSplit> splits() throws IOException {
    return plan().stream().map(Planned::split).toList();
  }

  /**
   * One task per split.
   *
   * @throws IllegalArgumentException when a path does not exist or matches nothing, or the input
   *     holds no data: one line for the user
   */
  public List<TaskSpec> taskSpecs() throws IOException {
    List<TaskSpec> out = new ArrayList<>();
    for (Planned p : plan()) {
      Map<String, String> all = new LinkedHashMap<>(params);
      all.putAll(p.split().params());
      out.add(new TaskSpec(all, p.hosts()));
    }
    return out;
  }

  private record Planned(FileSplit split, List<String> hosts) {}

  private List<Planned> plan() throws IOException {
    Configuration c = conf != null ? conf : new Configuration();
    // By URI, as Path orders itself: Path.compareTo's signature differs between Hadoop versions.
    Map<java.net.URI, LocatedFileStatus> files = new TreeMap<>();
    for (String given : paths) {
      Path p = JobPaths.resolve(given, c);
      FileSystem fs = p.getFileSystem(c);
      FileStatus[] matches = fs.globStatus(p);
      if (matches == null) {
        throw new IllegalArgumentException("the input " + p + " does not exist");
      }
      if (matches.length == 0) {
        throw new IllegalArgumentException("the input " + p + " matches no files");
      }
      for (FileStatus m : matches) {
        addFiles(fs, m, files);
      }
    }
    CompressionCodecFactory codecs = new CompressionCodecFactory(c);
    List<Planned> out = new ArrayList<>();
    for (LocatedFileStatus f : files.values()) {
      split(f, codecs.getCodec(f.getPath()) != null, out);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("the input " + String.join(", ", paths) + " holds no data");
    }
    return out;
  }

  private static void addFiles(FileSystem fs, FileStatus top, Map<java.net.URI, LocatedFileStatus> files)
      throws IOException {
    RemoteIterator<LocatedFileStatus> it;
    try {
      it = fs.listFiles(top.getPath(), true);
    } catch (FileNotFoundException e) {
      throw new IllegalArgumentException("the input " + top.getPath() + " does not exist");
    }
    while (it.hasNext()) {
      LocatedFileStatus f = it.next();
      if (f.getLen() > 0 && (top.isFile() || visible(top.getPath(), f.getPath()))) {
        files.put(f.getPath().toUri(), f);
      }
    }
  }

  /** No component below the input directory starts with '.' or '_'. */
  private static boolean visible(Path root, Path p) {
    String rootPath = root.toUri().getPath();
    for (Path q = p; q != null && !q.toUri().getPath().equals(rootPath); q = q.getParent()) {
      String n = q.getName();
      if (n.startsWith(".") || n.startsWith("_")) {
        return false;
      }
    }
    return true;
  }

  private void split(LocatedFileStatus f, boolean compressed, List<Planned> out) {
    String path = f.getPath().toString();
    BlockLocation[] blocks = f.getBlockLocations();
    long len = f.getLen();
    if (compressed) {
      out.add(new Planned(new FileSplit(path, 0, len), hostsAt(blocks, 0)));
      return;
    }
    long size = splitBytes > 0 ? splitBytes : Math.max(1, f.getBlockSize());
    long offset = 0;
    while (len - offset > 0) {
      long left = len - offset;
      long length = left / (double) size > SLOP ? size : left;
      out.add(new Planned(new FileSplit(path, offset, length), hostsAt(blocks, offset)));
      offset += length;
    }
  }

  /** The hosts of the block holding {@code offset}, without "localhost" (a local file system's answer). */
  private static List<String> hostsAt(BlockLocation[] blocks, long offset) {
    if (blocks == null) {
      return List.of();
    }
    for (BlockLocation b : blocks) {
      if (offset >= b.getOffset() && offset < b.getOffset() + b.getLength()) {
        try {
          return Arrays.stream(b.getHosts()).filter(h -> !h.isBlank() && !h.equals("localhost")).distinct().toList();
        } catch (IOException e) {
          return List.of();
        }
      }
    }
    return List.of();
  }
}
