package org.elasticam.am;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A name for a build of a jar: equal for equal content, whatever its path or time. */
public final class JarDigest {

  private JarDigest() {}

  /** The first 16 bytes of the file's SHA-256, in hex. */
  public static String of(Path file) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        sha.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(sha.digest(), 0, 16);
  }
}
