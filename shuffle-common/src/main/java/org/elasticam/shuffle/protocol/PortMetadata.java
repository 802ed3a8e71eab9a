package org.elasticam.shuffle.protocol;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * What the service's {@code getMetaData()} returns, so the AM learns each NodeManager's service
 * port from the start-containers response (and a container from {@code NM_AUX_SERVICE_<name>},
 * base64). Version 1, big-endian, 4 bytes:
 *
 * <pre>
 * byte 0     version (1)
 * byte 1     flags: bit 0 = TLS
 * bytes 2-3  port
 * </pre>
 */
public final class PortMetadata {

  public static final int VERSION = 1;
  private static final int FLAG_TLS = 1;

  private final int port;
  private final boolean tls;

  public PortMetadata(int port, boolean tls) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("not a port: " + port);
    }
    this.port = port;
    this.tls = tls;
  }

  public int port() {
    return port;
  }

  public boolean tls() {
    return tls;
  }

  public ByteBuffer encode() {
    ByteBuffer b = ByteBuffer.allocate(4);
    b.put((byte) VERSION).put((byte) (tls ? FLAG_TLS : 0)).putShort((short) port);
    b.flip();
    return b;
  }

  /** @throws IllegalArgumentException on another version, unknown flags or a wrong length */
  public static PortMetadata decode(ByteBuffer data) {
    ByteBuffer b = data.duplicate();
    if (b.remaining() != 4) {
      throw new IllegalArgumentException("port metadata has 4 bytes, not " + b.remaining());
    }
    int version = b.get() & 0xff;
    if (version != VERSION) {
      throw new IllegalArgumentException("unsupported port metadata version " + version + " (this reads " + VERSION + ")");
    }
    int flags = b.get() & 0xff;
    if ((flags & ~FLAG_TLS) != 0) {
      throw new IllegalArgumentException("unknown port metadata flags " + flags);
    }
    return new PortMetadata(b.getShort() & 0xffff, (flags & FLAG_TLS) != 0);
  }

  /** From a container's {@code NM_AUX_SERVICE_<name>} environment variable. */
  public static PortMetadata fromEnvironment(String base64) {
    try {
      return decode(ByteBuffer.wrap(Base64.getDecoder().decode(base64.trim())));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("NM_AUX_SERVICE value is not port metadata: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PortMetadata)) {
      return false;
    }
    PortMetadata other = (PortMetadata) o;
    return port == other.port && tls == other.tls;
  }

  @Override
  public int hashCode() {
    int h = Integer.hashCode(port);
    return 31 * h + Boolean.hashCode(tls);
  }

  @Override
  public String toString() {
    return "PortMetadata[port=" + port + ", tls=" + tls + "]";
  }
}
