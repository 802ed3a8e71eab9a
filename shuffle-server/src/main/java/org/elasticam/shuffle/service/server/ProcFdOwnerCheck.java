package org.elasticam.shuffle.service.server;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The owner check without Hadoop's native library, on Linux. The file is opened, then the opened
 * file is looked at through {@code /proc/self/fd/<n>}: the kernel resolves that link to the open
 * file itself, so its stat is the descriptor's ({@code fstat}), whatever has happened to the path
 * since — renamed, replaced, unlinked. The JDK has no public way to read a descriptor's number, so
 * it is read from {@link FileDescriptor}'s field with {@code sun.misc.Unsafe} (on Java 8, and
 * from module jdk.unsupported on JDK 17 and 21 without flags); {@link #probe} proves the whole
 * chain on a file of its own at start, and the service refuses to serve when it does not hold.
 *
 * <p>Owners are compared by name, as Hadoop's SecureIOUtils does; a uid's name is looked up once
 * (like NativeIO's user cache), so an open costs one {@code stat} on top of the open.
 */
final class ProcFdOwnerCheck {

  private static final Path PROC_FD = Paths.get("/proc/self/fd");

  private final MethodHandle fdNumber;
  private final Map<Integer, String> names = new ConcurrentHashMap<>();

  private ProcFdOwnerCheck(MethodHandle fdNumber) {
    this.fdNumber = fdNumber;
  }

  /**
   * The check, once shown to work on the JVM's own binary: the descriptor's number is found and
   * {@code /proc/self/fd} reports that very file.
   *
   * @throws IOException saying why it cannot work here
   */
  static OwnedFileOpener probe() throws IOException {
    MethodHandle fdNumber;
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      Object unsafe = theUnsafe.get(null);
      long offset = (long) unsafeClass.getMethod("objectFieldOffset", Field.class)
          .invoke(unsafe, FileDescriptor.class.getDeclaredField("fd"));
      MethodHandle getInt = MethodHandles.lookup().findVirtual(unsafeClass, "getInt",
          MethodType.methodType(int.class, Object.class, long.class));
      fdNumber = MethodHandles.insertArguments(getInt.bindTo(unsafe), 1, offset)
          .asType(MethodType.methodType(int.class, FileDescriptor.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IOException("cannot read a file descriptor's number on this JVM: " + e, e);
    }
    ProcFdOwnerCheck check = new ProcFdOwnerCheck(fdNumber);
    // The JVM's own binary: readable wherever the service runs, and probing it writes nothing.
    Path sample = Paths.get("/proc/self/exe");
    try (RandomAccessFile f = new RandomAccessFile(sample.toFile(), "r")) {
      Map<String, Object> expected = Files.readAttributes(sample, "unix:ino,dev");
      Map<String, Object> seen = Files.readAttributes(check.procPath(f.getFD()), "unix:ino,dev");
      if (!expected.equals(seen)) {
        throw new IOException("/proc/self/fd does not show the opened file (" + seen + " for " + expected + ")");
      }
    } catch (UnsupportedOperationException e) {
      throw new IOException("no unix file attributes here: " + e.getMessage(), e);
    }
    return new DescriptorOwnerCheck(check::ownerOf, "owner of the opened file read through /proc/self/fd");
  }

  /** The owner's name of the open file {@code fd}. */
  String ownerOf(FileDescriptor fd) throws IOException {
    Path opened = procPath(fd);
    int uid = (Integer) Files.getAttribute(opened, "unix:uid");
    String owner = names.get(uid);
    if (owner == null) {
      owner = Files.readAttributes(opened, PosixFileAttributes.class).owner().getName();
      names.put(uid, owner);
    }
    return owner;
  }

  private Path procPath(FileDescriptor fd) throws IOException {
    int n;
    try {
      n = (int) fdNumber.invokeExact(fd);
    } catch (Throwable t) {
      throw new IOException("cannot read the descriptor's number", t);
    }
    if (n < 0) {
      throw new IOException("the file is not open");
    }
    return PROC_FD.resolve(Integer.toString(n));
  }
}
