package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A file opened through an {@link OwnedFileOpener}: its channel, and the opener's owner check made
 * again on the very descriptor that is read, for a file kept open between fetches (a {@code chown}
 * keeps the inode, so only the descriptor can tell).
 */
public final class OpenedFile {

  /** The owner check of an opened file, repeatable while it is open. */
  @FunctionalInterface
  public interface OwnerCheck {
    /** @throws ForeignOwnerException when {@code user} does not own the file now */
    void check(String user) throws IOException;
  }

  private final FileChannel channel;
  private final OwnerCheck owner;

  public OpenedFile(FileChannel channel, OwnerCheck owner) {
    this.channel = channel;
    this.owner = owner;
  }

  /** A file whose owner is not checked. */
  public static OpenedFile unchecked(FileChannel channel) {
    return new OpenedFile(channel, user -> { });
  }

  public FileChannel channel() {
    return channel;
  }

  /** Checks the owner of the open descriptor again. */
  public void checkOwner(String user) throws IOException {
    owner.check(user);
  }
}
