package org.elasticam.shuffle.service.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalStoreTest {

  @TempDir
  Path dir;

  private static final byte[] S1 = "secret-one-secret-one-secret-one".getBytes();

  private Path file() {
    return dir.resolve(JournalStore.FILE);
  }

  @Test
  void stateSurvivesReopeningAndTheJournalIsCompacted() throws Exception {
    try (JournalStore s = JournalStore.open(dir, 1)) {
      assertTrue(s.recovered().isEmpty());
      s.putApp("application_1_1", "alice", S1);
      s.putExecutor("application_1_1", "e1", List.of("/a", "/b"));
      s.putExecutor("application_1_1", "e1", List.of("/c"));
      s.putApp("application_1_2", "bob", S1);
      s.putExecutor("application_1_2", "e9", List.of("/x"));
      s.removeApp("application_1_2");
    }
    long before = Files.size(file());
    try (JournalStore s = JournalStore.open(dir, 2)) {
      assertEquals(1, s.recovered().size());
      StoredApp a = s.recovered().get(0);
      assertEquals("alice", a.user());
      assertArrayEquals(S1, a.secret());
      assertEquals(Map.of("e1", List.of("/c")), a.executors());
      assertFalse(s.startedFromCorrupt());
    }
    assertTrue(Files.size(file()) < before, "compacted on open");
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
  }

  @Test
  void aTornLastRecordIsDroppedAndTheRestKept() throws Exception {
    try (JournalStore s = JournalStore.open(dir, 1)) {
      s.putApp("application_1_1", "alice", S1);
      s.putApp("application_1_2", "alice", S1);
    }
    byte[] b = Files.readAllBytes(file());
    Files.write(file(), java.util.Arrays.copyOf(b, b.length - 3));
    try (JournalStore s = JournalStore.open(dir, 2)) {
      assertEquals(List.of("application_1_1"), s.recovered().stream().map(StoredApp::appId).toList());
      assertFalse(s.startedFromCorrupt());
    }
  }

  @Test
  void aCorruptRecordInTheMiddleMovesTheFileAsideAndStartsEmpty() throws Exception {
    try (JournalStore s = JournalStore.open(dir, 1)) {
      s.putApp("application_1_1", "alice", S1);
      s.putApp("application_1_2", "alice", S1);
    }
    byte[] b = Files.readAllBytes(file());
    b[JournalCodec.HEADER_SIZE + JournalCodec.RECORD_OVERHEAD + 4] ^= 1;
    Files.write(file(), b);
    try (JournalStore s = JournalStore.open(dir, 77)) {
      assertTrue(s.startedFromCorrupt());
      assertTrue(s.recovered().isEmpty());
      s.putApp("application_1_3", "alice", S1);
    }
    assertArrayEquals(b, Files.readAllBytes(dir.resolve(JournalStore.FILE + ".corrupt-77")), "the evidence is kept");
    try (JournalStore s = JournalStore.open(dir, 78)) {
      assertEquals(1, s.recovered().size(), "new state after the corrupt start survives the next one");
    }
    Files.write(file(), "not a journal at all".getBytes());
    try (JournalStore s = JournalStore.open(dir, 79)) {
      assertTrue(s.startedFromCorrupt());
    }
  }

  @Test
  void anotherMajorVersionRefusesAndANewerMinorIsReadSkippingUnknownRecords() throws Exception {
    Files.createDirectories(dir);
    Files.write(file(), JournalCodec.header(2, 0));
    IncompatibleStateException e = assertThrows(IncompatibleStateException.class, () -> JournalStore.open(dir, 1));
    assertTrue(e.getMessage().contains("schema version 2.0"), e.getMessage());
    assertTrue(Files.exists(file()), "an incompatible store is left alone");

    ByteArrayOutputStream newer = new ByteArrayOutputStream();
    newer.writeBytes(JournalCodec.header(1, 3));
    newer.writeBytes(JournalCodec.putApp("application_1_1", "alice", S1));
    byte[] unknown = {42, 0, 1, 7};
    java.nio.ByteBuffer rec = java.nio.ByteBuffer.allocate(8 + unknown.length);
    rec.putInt(unknown.length).putInt(JournalCodec.crc(unknown, 0, unknown.length)).put(unknown);
    newer.writeBytes(rec.array());
    Files.write(file(), newer.toByteArray());
    try (JournalStore s = JournalStore.open(dir, 1)) {
      assertEquals(1, s.recovered().size());
    }
    java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(Files.readAllBytes(file()));
    assertEquals(JournalCodec.MINOR, h.getShort(6), "rewritten at this version");
  }
}
