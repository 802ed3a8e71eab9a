package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.elasticam.rpc.AppSecretAuth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our reader of the container's credentials file against Hadoop's own writer, and damaged files. */
class TokenStorageFileTest {

  private static final String KEY = AppSecretAuth.CREDENTIALS_KEY;

  @TempDir Path dir;

  /** What a NodeManager writes: delegation tokens before the secrets, and other secrets beside ours. */
  private static Credentials credentials(byte[] secret) {
    Credentials c = new Credentials();
    Token<TokenIdentifier> hdfs = new Token<>(new byte[] {1, 2, 3, (byte) 200}, new byte[70_000],
        new Text("HDFS_DELEGATION_TOKEN"), new Text("ha-hdfs:cluster é"));
    c.addToken(new Text("hdfs"), hdfs);
    c.addToken(new Text("rm"), new Token<>(new byte[0], new byte[0], new Text(""), new Text("")));
    c.addSecretKey(new Text("other.secret"), new byte[] {9});
    c.addSecretKey(new Text(KEY), secret);
    c.addSecretKey(new Text("after"), new byte[300]);
    return c;
  }

  private static byte[] written(Credentials c, Credentials.SerializedFormat format) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      c.writeTokenStorageToStream(out, format);
    }
    return bytes.toByteArray();
  }

  @Test
  void readsTheSecretHadoopWroteInEitherFormat() throws IOException {
    byte[] secret = new byte[200];
    new Random(7).nextBytes(secret);
    for (Credentials.SerializedFormat format : Credentials.SerializedFormat.values()) {
      Path file = dir.resolve("tokens-" + format);
      Files.write(file, written(credentials(secret), format));
      assertArrayEquals(secret, AppSecret.read(file), format.toString());
      assertArrayEquals(new byte[] {9}, TokenStorageFile.secretKey(file, "other.secret").orElseThrow());
      assertEquals(Optional.empty(), TokenStorageFile.secretKey(file, "absent"), format.toString());
    }
  }

  @Test
  void whatTheDefaultWriterWritesAndNoSecretAtAll() throws IOException {
    Credentials c = new Credentials();
    c.addSecretKey(new Text(KEY), "s".getBytes(StandardCharsets.UTF_8));
    Path file = dir.resolve("default");
    c.writeTokenStorageFile(new org.apache.hadoop.fs.Path(file.toUri()), new org.apache.hadoop.conf.Configuration());
    assertArrayEquals("s".getBytes(StandardCharsets.UTF_8), AppSecret.read(file));

    Path empty = dir.resolve("empty");
    Files.write(empty, written(new Credentials(), Credentials.SerializedFormat.WRITABLE));
    IOException e = assertThrows(IOException.class, () -> AppSecret.read(empty));
    assertTrue(e.getMessage().contains("hold no application secret"), e.getMessage());
  }

  @Test
  void everyTruncationAndFlippedByteIsAnIoExceptionOrAnotherSecret() throws IOException {
    for (Credentials.SerializedFormat format : Credentials.SerializedFormat.values()) {
      byte[] whole = written(credentials(new byte[] {1, 2, 3}), format);
      for (int n = 0; n < whole.length; n += (n < 400 ? 1 : 997)) {
        byte[] cut = Arrays.copyOf(whole, n);
        // A cut file is refused with an IOException, or read as far as it goes: never another secret.
        try {
          Optional<byte[]> s = TokenStorageFile.secretKey(cut, KEY, "cut");
          assertTrue(s.isEmpty() || Arrays.equals(s.get(), new byte[] {1, 2, 3}), format + " cut at " + n);
        } catch (IOException expected) {
          // fine
        }
      }
      Random random = new Random(11);
      for (int i = 0; i < 3000; i++) {
        byte[] flipped = whole.clone();
        int at = random.nextInt(Math.min(whole.length, 600));
        flipped[at] = (byte) random.nextInt(256);
        try {
          TokenStorageFile.secretKey(flipped, KEY, "flipped");
        } catch (IOException expected) {
          // fine: anything but a RuntimeException or an Error
        }
      }
    }
  }

  @Test
  void hostileLengthsAreRefusedWithoutAllocating() {
    // Writable: HDTS, format 0, no tokens, one secret whose alias claims 2^31-1 bytes.
    byte[] hugeAlias = {'H', 'D', 'T', 'S', 0, 0, 1, (byte) -116, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    IOException e = assertThrows(IOException.class, () -> TokenStorageFile.secretKey(hugeAlias, KEY, "f"));
    assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    byte[] negativeCount = {'H', 'D', 'T', 'S', 0, (byte) -121, 0x7f};
    assertThrows(IOException.class, () -> TokenStorageFile.secretKey(negativeCount, KEY, "f"));
    byte[] longInt = {'H', 'D', 'T', 'S', 0, (byte) -120, 1, 2, 3, 4, 5, 6, 7, 8};
    assertThrows(IOException.class, () -> TokenStorageFile.secretKey(longInt, KEY, "f"));
    // Protobuf: a delimited message claiming 2 GiB.
    byte[] hugeProto = {'H', 'D', 'T', 'S', 1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07};
    assertThrows(IOException.class, () -> TokenStorageFile.secretKey(hugeProto, KEY, "f"));
    assertThrows(IOException.class, () -> TokenStorageFile.secretKey("HDTS".getBytes(StandardCharsets.US_ASCII), KEY,
        "f"));
    assertThrows(IOException.class, () -> TokenStorageFile.secretKey(new byte[] {'H', 'D', 'T', 'S', 2}, KEY, "f"));
    assertThrows(IOException.class, () -> TokenStorageFile.secretKey("not a credentials file"
        .getBytes(StandardCharsets.US_ASCII), KEY, "f"));
  }

  @Test
  void aFileTooLargeIsRefusedBeforeItIsRead() throws IOException {
    Path big = dir.resolve("big");
    try (var ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {1}), TokenStorageFile.MAX_BYTES);
    }
    IOException e = assertThrows(IOException.class, () -> TokenStorageFile.secretKey(big, KEY));
    assertTrue(e.getMessage().contains("too large"), e.getMessage());
  }
}
