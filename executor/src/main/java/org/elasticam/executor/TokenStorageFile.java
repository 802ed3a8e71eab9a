package org.elasticam.executor;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads a secret key out of a file in Hadoop's token storage format, the credentials file a
 * NodeManager writes for each container: {@code "HDTS"}, a format byte, then the tokens and secret
 * keys, either as Writables (format 0, what Hadoop 3 writes by default) or as one length-delimited
 * {@code CredentialsProto} (format 1).
 *
 * <p>Why not Hadoop's {@code Credentials}: its {@code Text} keys pull in {@code Configuration} and,
 * through it, most of the cluster's classpath, which an executor does not otherwise need before it
 * registers (measured: BENCHMARKS.md, "the start-up classpath"). The format is a stable, on-disk
 * one; {@code TokenStorageFileTest} checks this reader against Hadoop's own writer in both formats.
 *
 * <p>The file is read whole (it is small; one above {@link #MAX_BYTES} is refused) and every length
 * in it is checked against what is left, so a damaged file is an {@link IOException}, never a huge
 * allocation or an index error.
 */
final class TokenStorageFile {

  static final int MAX_BYTES = 16 << 20;
  private static final byte[] MAGIC = "HDTS".getBytes(StandardCharsets.US_ASCII);
  private static final int WRITABLE = 0;
  private static final int PROTOBUF = 1;
  private static final int KV_ALIAS = 1;
  private static final int KV_SECRET = 3;
  private static final int SECRETS = 2;

  private TokenStorageFile() {}

  /** The secret key stored under {@code alias}, if the file holds one. */
  static Optional<byte[]> secretKey(Path file, String alias) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new IOException(file + " is " + size + " bytes: too large for a credentials file");
    }
    return secretKey(Files.readAllBytes(file), alias, file.toString());
  }

  static Optional<byte[]> secretKey(byte[] data, String alias, String what) throws IOException {
    if (data.length < MAGIC.length + 1 || !Arrays.equals(data, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IOException(what + " is not a Hadoop credentials file (no HDTS header)");
    }
    byte[] want = alias.getBytes(StandardCharsets.UTF_8);
    int format = data[MAGIC.length];
    int start = MAGIC.length + 1;
    try {
      return switch (format) {
        case WRITABLE -> new WritableReader(data, start, what).secret(want);
        case PROTOBUF -> protoSecret(data, start, want);
        default -> throw new IOException(what + " has credentials of unknown format " + format);
      };
    } catch (IndexOutOfBoundsException | com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IOException(what + " is damaged: " + e.getMessage(), e);
    }
  }

  private static Optional<byte[]> protoSecret(byte[] data, int start, byte[] want) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(data, start, data.length - start);
    int length = in.readRawVarint32();
    if (length < 0 || length > data.length - start) {
      throw new IndexOutOfBoundsException("credentials of " + length + " bytes in a file of " + data.length);
    }
    int outer = in.pushLimit(length);
    Optional<byte[]> found = Optional.empty();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag != delimited(SECRETS)) {
        in.skipField(tag);
        continue;
      }
      int kv = in.pushLimit(in.readRawVarint32());
      byte[] alias = null;
      byte[] secret = null;
      for (int t = in.readTag(); t != 0; t = in.readTag()) {
        if (t == delimited(KV_ALIAS)) {
          alias = in.readByteArray();
        } else if (t == delimited(KV_SECRET)) {
          secret = in.readByteArray();
        } else {
          in.skipField(t);
        }
      }
      in.popLimit(kv);
      if (secret != null && Arrays.equals(alias, want)) {
        found = Optional.of(secret); // a later entry under the same alias replaces an earlier one, as in Hadoop
      }
    }
    in.popLimit(outer);
    return found;
  }

  private static int delimited(int field) {
    return field << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  }

  /** Hadoop's Writable encoding: zero-compressed variable-length integers, and bytes after their length. */
  private static final class WritableReader {
    private final byte[] data;
    private final String what;
    private int pos;

    WritableReader(byte[] data, int pos, String what) {
      this.data = data;
      this.pos = pos;
      this.what = what;
    }

    Optional<byte[]> secret(byte[] want) throws IOException {
      int tokens = count("tokens");
      for (int i = 0; i < tokens; i++) {
        skipBytes(); // alias
        skipBytes(); // identifier
        skipBytes(); // password
        skipBytes(); // kind
        skipBytes(); // service
      }
      int secrets = count("secret keys");
      Optional<byte[]> found = Optional.empty();
      for (int i = 0; i < secrets; i++) {
        byte[] alias = bytes();
        byte[] value = bytes();
        if (Arrays.equals(alias, want)) {
          found = Optional.of(value);
        }
      }
      return found;
    }

    private int count(String of) throws IOException {
      int n = vint();
      if (n < 0) {
        throw new IOException(what + " is damaged: " + n + " " + of);
      }
      return n;
    }

    private byte[] bytes() throws IOException {
      int length = length();
      byte[] b = Arrays.copyOfRange(data, pos, pos + length);
      pos += length;
      return b;
    }

    private void skipBytes() throws IOException {
      int length = length(); // read before pos: length() moves it
      pos += length;
    }

    private int length() throws IOException {
      int length = vint();
      if (length < 0 || length > data.length - pos) {
        throw new IOException(what + " is damaged: a field of " + length + " bytes with " + (data.length - pos)
            + " left");
      }
      return length;
    }

    /** A value written by Hadoop's {@code WritableUtils.writeVInt}. */
    private int vint() throws IOException {
      byte first = data[pos++];
      if (first >= -112) {
        return first;
      }
      boolean negative = first < -120;
      int size = negative ? -(first + 120) : -(first + 112);
      if (size > 4) {
        throw new IOException(what + " is damaged: an integer of " + size + " bytes");
      }
      long v = 0;
      for (int i = 0; i < size; i++) {
        v = (v << 8) | (data[pos++] & 0xFF);
      }
      v = negative ? ~v : v;
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw new IOException(what + " is damaged: " + v + " does not fit an int");
      }
      return (int) v;
    }
  }
}
