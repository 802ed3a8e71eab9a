package org.elasticam.shuffle.layout;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.zip.Checksum;

/**
 * CRC32C (Castagnoli), the checksum of index files, fetched blocks and the service's recovery
 * journal. Java 8, where the NodeManager's JVM may be, has no {@code java.util.zip.CRC32C}: this
 * class uses the JDK's (hardware-accelerated) wherever the running JVM has it, and otherwise a
 * table-driven implementation of its own (slicing-by-8) whose values are the same bit for bit.
 * Not thread-safe, like the JDK's.
 */
public final class Crc32c implements Checksum {

  /** The Castagnoli polynomial, reflected. */
  private static final int POLY = 0x82F63B78;

  /** {@code new java.util.zip.CRC32C()} as {@code ()Checksum}, or null before Java 9. */
  private static final MethodHandle JDK = jdkConstructor();

  /** Slicing-by-8: {@code TABLE[k * 256 + b]} is the CRC of byte {@code b} followed by {@code k} zero bytes. */
  private static final int[] TABLE = table();

  /** The JDK's checksum; null when this instance computes its own. */
  private final Checksum jdk;
  /** Our own register, inverted (the CRC is {@code ~crc}). */
  private int crc = ~0;

  /** The JDK's implementation where the running JVM has one, else ours. */
  public Crc32c() {
    this(JDK != null);
  }

  /** {@code useJdk} false: the table-driven implementation, whatever the JVM (for tests). */
  Crc32c(boolean useJdk) {
    if (useJdk && JDK == null) {
      throw new IllegalStateException("this JVM has no java.util.zip.CRC32C");
    }
    this.jdk = useJdk ? newJdk() : null;
  }

  /** Whether instances made with {@link #Crc32c()} use the JDK's implementation. */
  static boolean usesJdk() {
    return JDK != null;
  }

  @Override
  public void update(int b) {
    if (jdk != null) {
      jdk.update(b);
    } else {
      crc = (crc >>> 8) ^ TABLE[(crc ^ b) & 0xff];
    }
  }

  /** The whole array. */
  public void update(byte[] b) {
    update(b, 0, b.length);
  }

  @Override
  public void update(byte[] b, int off, int len) {
    if (off < 0 || len < 0 || off > b.length - len) {
      throw new ArrayIndexOutOfBoundsException("offset " + off + ", length " + len + ", array " + b.length);
    }
    if (jdk != null) {
      jdk.update(b, off, len);
    } else {
      crc = updateTables(crc, b, off, off + len);
    }
  }

  @Override
  public long getValue() {
    return jdk != null ? jdk.getValue() : ~crc & 0xFFFFFFFFL;
  }

  @Override
  public void reset() {
    if (jdk != null) {
      jdk.reset();
    } else {
      crc = ~0;
    }
  }

  private static int updateTables(int crc, byte[] b, int from, int to) {
    int i = from;
    for (; to - i >= 8; i += 8) {
      int lo = crc ^ (b[i] & 0xff | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | b[i + 3] << 24);
      int hi = b[i + 4] & 0xff | (b[i + 5] & 0xff) << 8 | (b[i + 6] & 0xff) << 16 | b[i + 7] << 24;
      crc = TABLE[7 * 256 + (lo & 0xff)] ^ TABLE[6 * 256 + (lo >>> 8 & 0xff)]
          ^ TABLE[5 * 256 + (lo >>> 16 & 0xff)] ^ TABLE[4 * 256 + (lo >>> 24)]
          ^ TABLE[3 * 256 + (hi & 0xff)] ^ TABLE[2 * 256 + (hi >>> 8 & 0xff)]
          ^ TABLE[256 + (hi >>> 16 & 0xff)] ^ TABLE[hi >>> 24];
    }
    for (; i < to; i++) {
      crc = (crc >>> 8) ^ TABLE[(crc ^ b[i]) & 0xff];
    }
    return crc;
  }

  private static int[] table() {
    int[] t = new int[8 * 256];
    for (int n = 0; n < 256; n++) {
      int c = n;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ POLY : c >>> 1;
      }
      t[n] = c;
    }
    for (int n = 0; n < 256; n++) {
      for (int k = 1; k < 8; k++) {
        int prev = t[(k - 1) * 256 + n];
        t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff];
      }
    }
    return t;
  }

  private static MethodHandle jdkConstructor() {
    try {
      Class<?> c = Class.forName("java.util.zip.CRC32C");
      return MethodHandles.publicLookup().findConstructor(c, MethodType.methodType(void.class))
          .asType(MethodType.methodType(Checksum.class));
    } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
      return null;
    }
  }

  private static Checksum newJdk() {
    try {
      return (Checksum) JDK.invokeExact();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot make a java.util.zip.CRC32C", e);
    }
  }
}
