package org.elasticam.shuffle.service.server;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * Opens the file, then asks who owns what was opened: the check SecureIOUtils.openForRandomRead
 * makes, with the descriptor's owner read by Hadoop's native fstat or through /proc/self/fd.
 */
public final class DescriptorOwnerCheck implements OwnedFileOpener {

  /** The name of the user owning an open file. */
  @FunctionalInterface
  public interface DescriptorOwner {
    String ownerOf(FileDescriptor fd) throws IOException;
  }

  private final DescriptorOwner owners;
  private final String description;

  public DescriptorOwnerCheck(DescriptorOwner owners, String description) {
    this.owners = owners;
    this.description = description;
  }

  @Override
  public OpenedFile openChecked(Path file, String user) throws IOException {
    RandomAccessFile f = new RandomAccessFile(file.toFile(), "r");
    boolean ok = false;
    try {
      FileDescriptor fd = f.getFD();
      check(fd, file, user);
      ok = true;
      return new OpenedFile(f.getChannel(), u -> check(fd, file, u));
    } finally {
      if (!ok) {
        f.close();
      }
    }
  }

  private void check(FileDescriptor fd, Path file, String user) throws IOException {
    String owner = owners.ownerOf(fd);
    if (!user.equals(owner)) {
      throw new ForeignOwnerException(file, owner, user);
    }
  }

  @Override
  public boolean checksOwner() {
    return true;
  }

  @Override
  public String toString() {
    return description;
  }
}
