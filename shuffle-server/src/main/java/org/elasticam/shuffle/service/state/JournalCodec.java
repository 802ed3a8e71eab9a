package org.elasticam.shuffle.service.state;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.shuffle.layout.Crc32c;

/**
 * The journal's bytes, big-endian. Stateless.
 *
 * <pre>
 * header, 12 bytes: magic "EASJ" | major u16 | minor u16 | CRC32C of the 8 bytes before
 * record:           payload length u32 | CRC32C of the payload u32 | payload
 * payload:          type u8, then
 *   1 PUT_APP       appId str | user str | secret bytes
 *   2 REMOVE_APP    appId str
 *   3 PUT_EXECUTOR  appId str | executorId str | dir count u16 | dirs str...
 * str / bytes:      length u16 | UTF-8 / raw
 * </pre>
 *
 * A major version change means an older reader cannot read the file; a minor change may only add
 * record types, which older readers skip.
 */
final class JournalCodec {

  static final int MAGIC = 0x4541534A; // "EASJ"
  static final int MAJOR = 1;
  static final int MINOR = 0;
  static final int HEADER_SIZE = 12;
  static final int RECORD_OVERHEAD = 8;
  static final int MAX_PAYLOAD = 1 << 20;

  static final int PUT_APP = 1;
  static final int REMOVE_APP = 2;
  static final int PUT_EXECUTOR = 3;

  private JournalCodec() {}

  static byte[] header(int major, int minor) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE);
    b.putInt(MAGIC).putShort((short) major).putShort((short) minor);
    b.putInt(crc(b.array(), 0, 8));
    return b.array();
  }

  /** The header's {major, minor}. */
  static int[] readHeader(ByteBuffer b) throws CorruptStateException {
    if (b.remaining() < HEADER_SIZE || b.getInt(0) != MAGIC) {
      throw new CorruptStateException("not a shuffle state journal (bad magic)");
    }
    if (crc(b.array(), 0, 8) != b.getInt(8)) {
      throw new CorruptStateException("journal header fails its checksum");
    }
    return new int[] {b.getShort(4) & 0xffff, b.getShort(6) & 0xffff};
  }

  static byte[] putApp(String appId, String user, byte[] secret) {
    return record(PUT_APP, Arrays.asList(str(appId), str(user), secret));
  }

  static byte[] removeApp(String appId) {
    return record(REMOVE_APP, Collections.singletonList(str(appId)));
  }

  static byte[] putExecutor(String appId, String executorId, List<String> dirs) {
    List<byte[]> fields = new ArrayList<>();
    fields.add(str(appId));
    fields.add(str(executorId));
    fields.add(null); // the dir count goes here
    dirs.forEach(d -> fields.add(str(d)));
    ByteBuffer payload = ByteBuffer.allocate(payloadSize(fields));
    payload.put((byte) PUT_EXECUTOR);
    for (byte[] f : fields) {
      if (f == null) {
        payload.putShort((short) dirs.size());
      } else {
        payload.putShort((short) f.length).put(f);
      }
    }
    return frame(payload.array());
  }

  private static byte[] record(int type, List<byte[]> fields) {
    ByteBuffer payload = ByteBuffer.allocate(payloadSize(fields));
    payload.put((byte) type);
    for (byte[] f : fields) {
      payload.putShort((short) f.length).put(f);
    }
    return frame(payload.array());
  }

  private static int payloadSize(List<byte[]> fields) {
    int n = 1;
    for (byte[] f : fields) {
      if (f != null && f.length > 0xffff) {
        throw new IllegalArgumentException("a journal field is at most 65535 bytes");
      }
      n += 2 + (f == null ? 0 : f.length);
    }
    return n;
  }

  private static byte[] frame(byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(RECORD_OVERHEAD + payload.length);
    b.putInt(payload.length).putInt(crc(payload, 0, payload.length)).put(payload);
    return b.array();
  }

  private static byte[] str(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Applies one payload to the state being rebuilt; unknown types (a newer minor version) are
   * skipped.
   *
   * @throws CorruptStateException when a known payload does not parse
   */
  static void apply(ByteBuffer payload, Map<String, StoredAppBuilder> apps) throws CorruptStateException {
    try {
      int type = payload.get() & 0xff;
      switch (type) {
        case PUT_APP:
          putApp(payload, apps);
          break;
        case REMOVE_APP:
          apps.remove(readStr(payload));
          break;
        case PUT_EXECUTOR:
          putExecutor(payload, apps);
          break;
        default:
          // a newer minor version's record: skipped
      }
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new CorruptStateException("a journal record does not parse: " + e);
    }
  }

  private static void putApp(ByteBuffer payload, Map<String, StoredAppBuilder> apps) {
    String appId = readStr(payload);
    StoredAppBuilder prev = apps.get(appId);
    apps.put(appId, new StoredAppBuilder(appId, readStr(payload), readBytes(payload),
        prev == null ? new LinkedHashMap<>() : prev.executors));
  }

  private static void putExecutor(ByteBuffer payload, Map<String, StoredAppBuilder> apps) {
    String appId = readStr(payload);
    String executorId = readStr(payload);
    int n = payload.getShort() & 0xffff;
    List<String> dirs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      dirs.add(readStr(payload));
    }
    StoredAppBuilder app = apps.get(appId);
    if (app != null) {
      app.executors.put(executorId, dirs);
    }
  }

  private static String readStr(ByteBuffer b) {
    return new String(readBytes(b), StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(ByteBuffer b) {
    byte[] out = new byte[b.getShort() & 0xffff];
    b.get(out);
    return out;
  }

  static int crc(byte[] a, int off, int len) {
    Crc32c c = new Crc32c();
    c.update(a, off, len);
    return (int) c.getValue();
  }

  /** An application being rebuilt from records. */
  static final class StoredAppBuilder {
    private final String appId;
    private final String user;
    private final byte[] secret;
    private final Map<String, List<String>> executors;

    StoredAppBuilder(String appId, String user, byte[] secret, Map<String, List<String>> executors) {
      this.appId = appId;
      this.user = user;
      this.secret = secret;
      this.executors = executors;
    }

    StoredApp build() {
      return new StoredApp(appId, user, secret, executors);
    }
  }
}
