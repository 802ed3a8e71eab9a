package org.elasticam.shuffle.service.server;

import io.netty.channel.DefaultFileRegion;
import org.elasticam.shuffle.service.server.KeptFiles.KeptFile;

/**
 * A block of a kept data file sent zero-copy ({@code sendfile}): Netty's file region over the
 * shared descriptor, which, when the region is done, lets the file go instead of closing it.
 */
final class KeptFileRegion extends DefaultFileRegion {

  private final KeptFile file;

  KeptFileRegion(KeptFile file, long position, long count) {
    super(file.retain().channel(), position, count);
    this.file = file;
  }

  @Override
  protected void deallocate() {
    file.release();
  }
}
