package org.elasticam.executor.shuffle;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** One sorted block's bytes: in memory, or a region of a spill file. */
sealed interface BlockSource {

  /** A fresh stream over the block; the caller closes it. */
  InputStream open() throws IOException;

  long length();

  record InMemory(byte[] bytes) implements BlockSource {
    @Override
    public InputStream open() {
      return new ByteArrayInputStream(bytes);
    }

    @Override
    public long length() {
      return bytes.length;
    }
  }

  record FileRegion(Path file, long offset, long length) implements BlockSource {
    @Override
    public InputStream open() throws IOException {
      FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
      ch.position(offset);
      return new BufferedInputStream(Channels.newInputStream(ch), 64 * 1024);
    }
  }
}
