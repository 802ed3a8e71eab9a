package org.elasticam.executor.shuffle;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The blocks a reduce task gathered: kept in memory while they fit the task's bound, appended to a
 * spill file beyond it, so that the fetch client's buffers can be released at once however much a
 * partition holds.
 */
public final class BlockBuffer implements AutoCloseable {

  private final long memoryLimit;
  private final Path spillDir;
  private final List<BlockSource> sources = new ArrayList<>();
  private long inMemory;
  private Path spill;
  private OutputStream spillOut;
  private long spillLength;

  public BlockBuffer(long memoryLimitBytes, Path spillDir) {
    this.memoryLimit = memoryLimitBytes;
    this.spillDir = spillDir;
  }

  public void add(byte[] block) throws IOException {
    if (block.length == 0) {
      return;
    }
    if (inMemory + block.length <= memoryLimit) {
      sources.add(new BlockSource.InMemory(block));
      inMemory += block.length;
      return;
    }
    if (spillOut == null) {
      Files.createDirectories(spillDir);
      spill = Files.createTempFile(spillDir, "fetched-", ".blocks");
      spillOut = new BufferedOutputStream(Files.newOutputStream(spill), 64 * 1024);
    }
    spillOut.write(block);
    sources.add(new BlockSource.FileRegion(spill, spillLength, block.length));
    spillLength += block.length;
  }

  /** Every block added, readable once the writing is flushed. */
  public List<BlockSource> sources() throws IOException {
    if (spillOut != null) {
      spillOut.flush();
    }
    return List.copyOf(sources);
  }

  @Override
  public void close() throws IOException {
    if (spillOut != null) {
      spillOut.close();
      Files.deleteIfExists(spill);
      spillOut = null;
    }
    sources.clear();
  }
}
