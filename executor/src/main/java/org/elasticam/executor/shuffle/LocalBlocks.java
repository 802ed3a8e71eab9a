package org.elasticam.executor.shuffle;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.CRC32C;
import org.elasticam.shuffle.client.BlockCorruptedException;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.IndexFile;
import org.elasticam.shuffle.layout.ShuffleLayout;

/**
 * Reads a block of a map output on this node straight from its files, with the checks the service
 * and the fetch client make together: the index entry's checksum, the entry within the data file,
 * and the block's CRC32C. Used when {@code elasticam.shuffle.readLocalDirectly} is on.
 */
public final class LocalBlocks {

  private LocalBlocks() {}

  /**
   * Block ({@code mapId}, {@code partition}) of shuffle {@code shuffleId} written under {@code dirs}.
   *
   * @throws java.nio.file.NoSuchFileException when the map's output is not there
   * @throws org.elasticam.shuffle.layout.CorruptIndexException when its index does not check out
   * @throws BlockCorruptedException when the block's bytes fail their checksum
   */
  public static byte[] read(List<Path> dirs, int shuffleId, int mapId, int partition) throws IOException {
    try (FileChannel index = FileChannel.open(ShuffleLayout.indexFile(dirs, shuffleId, mapId), StandardOpenOption.READ);
        FileChannel data = FileChannel.open(ShuffleLayout.dataFile(dirs, shuffleId, mapId), StandardOpenOption.READ)) {
      IndexEntry e = IndexFile.read(index, partition, partition).get(0);
      if (e.end() > data.size()) {
        throw new IOException("the index points past its data file");
      }
      ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(e.length()));
      while (b.hasRemaining()) {
        if (data.read(b, e.offset() + b.position()) < 0) {
          throw new IOException("the data file ended early");
        }
      }
      CRC32C crc = new CRC32C();
      crc.update(b.array(), 0, b.capacity());
      if ((int) crc.getValue() != e.crc32c()) {
        throw new BlockCorruptedException("block (map " + mapId + ", reduce " + partition + ") fails its checksum",
            mapId, partition);
      }
      return b.array();
    }
  }
}
