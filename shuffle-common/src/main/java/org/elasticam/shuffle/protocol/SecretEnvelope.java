package org.elasticam.shuffle.protocol;

import java.nio.ByteBuffer;

/**
 * How an application's shuffle secret travels in {@code ContainerLaunchContext.serviceData} to the
 * service's {@code initializeApplication}. Version 1, big-endian:
 *
 * <pre>
 * byte 0     version (1)
 * byte 1     flags: bit 0 = do not persist (the secret is kept in memory only, not in recovery)
 * bytes 2-3  secret length n, 16..1024
 * bytes 4..  the secret
 * </pre>
 *
 * Anything else — another version, a length that does not match — is refused, never guessed at.
 */
public final class SecretEnvelope {

  public static final int VERSION = 1;
  private static final int FLAG_NO_PERSIST = 1;
  private static final int MIN_SECRET = 16;
  private static final int MAX_SECRET = 1024;

  private final byte[] secret;
  private final boolean persist;

  public SecretEnvelope(byte[] secret, boolean persist) {
    if (secret == null || secret.length < MIN_SECRET || secret.length > MAX_SECRET) {
      throw new IllegalArgumentException("a shuffle secret has " + MIN_SECRET + " to " + MAX_SECRET + " bytes");
    }
    secret = secret.clone();
    this.secret = secret;
    this.persist = persist;
  }

  public boolean persist() {
    return persist;
  }

  public byte[] secret() {
    return secret.clone();
  }

  public ByteBuffer encode() {
    ByteBuffer b = ByteBuffer.allocate(4 + secret.length);
    b.put((byte) VERSION).put((byte) (persist ? 0 : FLAG_NO_PERSIST)).putShort((short) secret.length).put(secret);
    b.flip();
    return b;
  }

  /** @throws IllegalArgumentException on an unknown version, unknown flags or a wrong length */
  public static SecretEnvelope decode(ByteBuffer data) {
    ByteBuffer b = data.duplicate();
    if (b.remaining() < 4) {
      throw new IllegalArgumentException("secret envelope too short: " + b.remaining() + " bytes");
    }
    int version = b.get() & 0xff;
    if (version != VERSION) {
      throw new IllegalArgumentException("unsupported secret envelope version " + version + " (this service reads "
          + VERSION + ")");
    }
    int flags = b.get() & 0xff;
    if ((flags & ~FLAG_NO_PERSIST) != 0) {
      throw new IllegalArgumentException("unknown secret envelope flags " + flags);
    }
    int n = b.getShort() & 0xffff;
    if (b.remaining() != n) {
      throw new IllegalArgumentException("secret envelope says " + n + " bytes, carries " + b.remaining());
    }
    byte[] secret = new byte[n];
    b.get(secret);
    return new SecretEnvelope(secret, (flags & FLAG_NO_PERSIST) == 0);
  }

  @Override
  public String toString() {
    return "SecretEnvelope[" + secret.length + " bytes, persist=" + persist + "]";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SecretEnvelope)) {
      return false;
    }
    SecretEnvelope e = (SecretEnvelope) o;
    return persist == e.persist && java.util.Arrays.equals(secret, e.secret);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(secret) * 31 + Boolean.hashCode(persist);
  }

}
