package org.elasticam.shuffle.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class EncodingsTest {

  @Test
  void theSecretEnvelopeIsVersionedAndExact() {
    byte[] secret = new byte[32];
    secret[31] = 7;
    ByteBuffer b = new SecretEnvelope(secret, true).encode();
    assertEquals(36, b.remaining());
    assertEquals(1, b.get(0));
    assertEquals(0, b.get(1));
    assertEquals(32, b.getShort(2));
    assertEquals(new SecretEnvelope(secret, true), SecretEnvelope.decode(b));
    assertFalse(SecretEnvelope.decode(new SecretEnvelope(secret, false).encode()).persist());

    ByteBuffer v2 = new SecretEnvelope(secret, true).encode();
    v2.put(0, (byte) 2);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SecretEnvelope.decode(v2)).getMessage()
        .contains("version 2"));
    ByteBuffer flags = new SecretEnvelope(secret, true).encode();
    flags.put(1, (byte) 4);
    assertThrows(IllegalArgumentException.class, () -> SecretEnvelope.decode(flags));
    assertThrows(IllegalArgumentException.class, () -> SecretEnvelope.decode(ByteBuffer.wrap(new byte[] {1, 0, 0, 40, 1})));
    assertThrows(IllegalArgumentException.class, () -> SecretEnvelope.decode(ByteBuffer.wrap("raw secret".getBytes())));
    assertThrows(IllegalArgumentException.class, () -> new SecretEnvelope(new byte[8], true));
    assertFalse(new SecretEnvelope(secret, true).toString().contains("7"), "never prints the secret");
  }

  @Test
  void portMetadataIsFourVersionedBytes() {
    for (int port : new int[] {1, 7447, 65535}) {
      PortMetadata m = new PortMetadata(port, port == 7447);
      assertEquals(4, m.encode().remaining());
      assertEquals(m, PortMetadata.decode(m.encode()));
    }
    assertArrayEquals(new byte[] {1, 1, 0x1d, 0x17}, toArray(new PortMetadata(7447, true).encode()));
    assertThrows(IllegalArgumentException.class, () -> PortMetadata.decode(ByteBuffer.wrap(new byte[] {2, 0, 0, 1})));
    assertThrows(IllegalArgumentException.class, () -> PortMetadata.decode(ByteBuffer.wrap(new byte[] {0, 0, 0x1d, 0x17})));
    assertThrows(IllegalArgumentException.class, () -> PortMetadata.decode(ByteBuffer.wrap(new byte[] {1, 0, 0x1d})));
    assertEquals(new PortMetadata(7447, false),
        PortMetadata.fromEnvironment(Base64.getEncoder().encodeToString(new byte[] {1, 0, 0x1d, 0x17})));
  }

  @Test
  void blockHeadersAreTwentyBytes() {
    BlockHeader h = new BlockHeader(3, 9, 1L << 33, 0xCAFEBABE);
    byte[] b = h.toBytes();
    assertEquals(BlockHeader.SIZE, b.length);
    assertEquals(h, BlockHeader.readFrom(ByteBuffer.wrap(b)));
    b[0] = (byte) 0x80;
    assertThrows(IllegalArgumentException.class, () -> BlockHeader.readFrom(ByteBuffer.wrap(b)));
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }
}
