package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Opens index and data files for reading. On a secure NodeManager an application's files must be
 * owned by the application's user: otherwise anyone who can write into an app's dirs could have
 * the service send a file of another user, planted there as a hard link (symbolic links are
 * refused before any open, by {@code DirConfinement}). The owner is read from the opened
 * descriptor, never looked up by path before the open, so a file swapped in between the two
 * cannot get through.
 */
public interface OwnedFileOpener {

  /**
   * The file open for reading, owned by {@code user} when this opener checks owners.
   *
   * @throws ForeignOwnerException when the opened file belongs to someone else (nothing stays open)
   */
  default FileChannel open(Path file, String user) throws IOException {
    return openChecked(file, user).channel();
  }

  /**
   * The file open for reading, as {@link #open}, with the owner check repeatable on the same
   * descriptor: for a file kept open between fetches.
   *
   * @throws ForeignOwnerException when the opened file belongs to someone else (nothing stays open)
   */
  OpenedFile openChecked(Path file, String user) throws IOException;

  /** Whether {@link #open} checks owners; the index cache then also revalidates what it holds. */
  boolean checksOwner();

  /** An insecure NodeManager: files are opened as they are, like Hadoop's ShuffleHandler without security. */
  static OwnedFileOpener unchecked() {
    return new OwnedFileOpener() {
      @Override
      public OpenedFile openChecked(Path file, String user) throws IOException {
        return OpenedFile.unchecked(FileChannel.open(file));
      }

      @Override
      public boolean checksOwner() {
        return false;
      }

      @Override
      public String toString() {
        return "file owners not checked";
      }
    };
  }

  /**
   * The check through {@code /proc/self/fd}, for a NodeManager without Hadoop's native library.
   *
   * @throws IOException saying why it cannot work on this platform or JVM
   */
  static OwnedFileOpener throughProcFd() throws IOException {
    return ProcFdOwnerCheck.probe();
  }

  /**
   * Owners must be checked but nothing here can do it race-free: every open fails, so the service
   * answers 500 rather than serving unchecked files on a secure cluster.
   */
  static OwnedFileOpener refusing(String why) {
    return new OwnedFileOpener() {
      @Override
      public OpenedFile openChecked(Path file, String user) throws IOException {
        throw new OwnerCheckUnavailableException(why);
      }

      @Override
      public boolean checksOwner() {
        return true;
      }

      @Override
      public String toString() {
        return "every file refused: " + why;
      }
    };
  }
}
