package org.elasticam.bench.shuffle;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.IndexFile;

/**
 * Writes a shape's map outputs once (random bytes, one data file per map) and indexes them for
 * each server: MapReduce's {@code SpillRecord} written by MapReduce's own code, our
 * {@link IndexFile}, and nothing for the sendfile baseline (fixed offsets). The three layouts are
 * hard links of the same file, so the page cache holds one copy for all of them.
 */
public final class Dataset {

  private Dataset() {}

  /** Writes the dataset unless a complete one is there already; returns the blocks' CRC32C. */
  public static int[][] ensure(Path work, Shape s) throws IOException {
    Path manifest = BenchApp.manifest(work, s);
    if (Files.exists(manifest)) {
      return readManifest(manifest, s);
    }
    int[][] crcs = new int[s.maps()][s.reduces()];
    byte[] block = new byte[s.blockSize()];
    JobConf conf = new JobConf(false);
    for (int m = 0; m < s.maps(); m++) {
      Path data = BenchApp.hadoopData(work, s, m);
      Files.createDirectories(data.getParent());
      SpillRecord spill = new SpillRecord(s.reduces());
      List<IndexEntry> ours = new ArrayList<>();
      try (FileChannel out = FileChannel.open(data, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        for (int r = 0; r < s.reduces(); r++) {
          new SplittableRandom(((long) s.index() << 48) ^ ((long) m << 24) ^ r).nextBytes(block);
          CRC32C crc = new CRC32C();
          crc.update(block);
          crcs[m][r] = (int) crc.getValue();
          long offset = (long) r * s.blockSize();
          ByteBuffer b = ByteBuffer.wrap(block);
          while (b.hasRemaining()) {
            out.write(b);
          }
          spill.putIndex(new IndexRecord(offset, s.blockSize(), s.blockSize()), r);
          ours.add(new IndexEntry(offset, s.blockSize(), crcs[m][r]));
        }
      }
      spill.writeToFile(new org.apache.hadoop.fs.Path(BenchApp.hadoopIndex(work, s, m).toString()), conf);
      link(BenchApp.oursData(work, s, m), data);
      Files.write(BenchApp.oursIndex(work, s, m), IndexFile.encode(ours));
      link(BenchApp.rawData(work, s, m), data);
    }
    writeManifest(manifest, crcs);
    return crcs;
  }

  private static void link(Path link, Path existing) throws IOException {
    Files.createDirectories(link.getParent());
    Files.deleteIfExists(link);
    Files.createLink(link, existing);
  }

  /** Reads every data and index file once, so that the runs start with the page cache warm. */
  public static long warm(Path work, Shape s) throws IOException {
    long bytes = 0;
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    for (int m = 0; m < s.maps(); m++) {
      for (Path p : List.of(BenchApp.hadoopData(work, s, m), BenchApp.hadoopIndex(work, s, m),
          BenchApp.oursIndex(work, s, m))) {
        try (FileChannel ch = FileChannel.open(p)) {
          for (int n; (n = ch.read(buf.clear())) >= 0; ) {
            bytes += n;
          }
        }
      }
    }
    return bytes;
  }

  private static void writeManifest(Path p, int[][] crcs) throws IOException {
    Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
    try (OutputStream o = Files.newOutputStream(tmp); DataOutputStream d = new DataOutputStream(
        new java.io.BufferedOutputStream(o))) {
      for (int[] map : crcs) {
        for (int c : map) {
          d.writeInt(c);
        }
      }
    }
    Files.move(tmp, p, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  public static int[][] readManifest(Path p, Shape s) throws IOException {
    int[][] crcs = new int[s.maps()][s.reduces()];
    try (InputStream i = Files.newInputStream(p); DataInputStream d = new DataInputStream(
        new java.io.BufferedInputStream(i))) {
      for (int[] map : crcs) {
        for (int r = 0; r < map.length; r++) {
          map[r] = d.readInt();
        }
      }
    }
    return crcs;
  }
}
