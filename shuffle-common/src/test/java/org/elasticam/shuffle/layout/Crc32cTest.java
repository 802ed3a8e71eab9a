package org.elasticam.shuffle.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The table-driven CRC32C, which a NodeManager on Java 8 runs, must give the JDK's values bit for
 * bit: index files, fetched blocks and the recovery journal carry them between JVMs of any version.
 */
class Crc32cTest {

  @Test
  void knownValues() {
    // RFC 3720 (iSCSI), B.4, and the usual check value.
    assertEquals(0xE3069283L, tableDriven(ascii("123456789")));
    assertEquals(0x8A9136AAL, tableDriven(new byte[32]));
    byte[] ones = new byte[32];
    Arrays.fill(ones, (byte) 0xff);
    assertEquals(0x62A8AB43L, tableDriven(ones));
    byte[] ascending = new byte[32];
    for (int i = 0; i < 32; i++) {
      ascending[i] = (byte) i;
    }
    assertEquals(0x46DD794EL, tableDriven(ascending));
    assertEquals(0L, tableDriven(new byte[0]));
  }

  @Test
  void matchesTheJdkOnRandomDataAtEveryLengthAndOffset() {
    Random random = new Random(1);
    byte[] data = randomBytes(random, 5000);
    for (int len = 0; len <= 1100; len++) {
      int off = len % 17;
      assertEquals(jdk(data, off, len), tableDriven(data, off, len), "length " + len + ", offset " + off);
    }
    for (int off = 0; off < 64; off++) {
      int len = data.length - off - random.nextInt(64);
      assertEquals(jdk(data, off, len), tableDriven(data, off, len), "length " + len + ", offset " + off);
    }
    byte[] large = randomBytes(random, 3 << 20);
    assertEquals(jdk(large, 0, large.length), tableDriven(large, 0, large.length));
  }

  @Test
  void updatesInPiecesGiveTheWholeChecksum() {
    Random random = new Random(2);
    byte[] data = randomBytes(random, 10_000);
    for (int round = 0; round < 200; round++) {
      Crc32c ours = new Crc32c(false);
      CRC32C theirs = new CRC32C();
      int at = 0;
      while (at < data.length) {
        if (random.nextInt(8) == 0) {
          ours.update(data[at]);
          theirs.update(data[at]);
          at++;
        } else {
          int n = Math.min(data.length - at, random.nextInt(40));
          ours.update(data, at, n);
          theirs.update(data, at, n);
          at += n;
        }
        assertEquals(theirs.getValue(), ours.getValue());
      }
    }
  }

  @Test
  void resetStartsAgainAndTheWholeArrayIsOneUpdate() {
    Crc32c c = new Crc32c(false);
    c.update(ascii("something else first"));
    c.reset();
    c.update(ascii("123456789"));
    assertEquals(0xE3069283L, c.getValue());
  }

  @Test
  void onThisJvmTheDefaultIsTheJdksAndAgreesWithIt() {
    assertTrue(Crc32c.usesJdk(), "Java 9+ has java.util.zip.CRC32C");
    byte[] data = randomBytes(new Random(3), 4096);
    Crc32c c = new Crc32c();
    c.update(data, 3, 4000);
    assertEquals(jdk(data, 3, 4000), c.getValue());
  }

  @Test
  void badRangesAreRefusedAsTheJdkRefusesThem() {
    byte[] b = new byte[10];
    for (Crc32c c : new Crc32c[] {new Crc32c(false), new Crc32c(true)}) {
      assertThrows(ArrayIndexOutOfBoundsException.class, () -> c.update(b, -1, 2));
      assertThrows(ArrayIndexOutOfBoundsException.class, () -> c.update(b, 0, -1));
      assertThrows(ArrayIndexOutOfBoundsException.class, () -> c.update(b, 9, 2));
      assertThrows(ArrayIndexOutOfBoundsException.class, () -> c.update(b, Integer.MAX_VALUE, 2));
      assertThrows(NullPointerException.class, () -> c.update(null, 0, 0));
    }
  }

  private static long tableDriven(byte[] b) {
    return tableDriven(b, 0, b.length);
  }

  private static long tableDriven(byte[] b, int off, int len) {
    Crc32c c = new Crc32c(false);
    c.update(b, off, len);
    return c.getValue();
  }

  private static long jdk(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return c.getValue();
  }

  private static byte[] randomBytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
