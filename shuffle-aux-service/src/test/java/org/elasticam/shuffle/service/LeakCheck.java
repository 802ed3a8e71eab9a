package org.elasticam.shuffle.service;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when Netty reports a leaked buffer. Registered for every test of the module (JUnit
 * extension auto-detection), so its static initialiser installs the recording detector before
 * any test allocates a buffer; PARANOID tracks every buffer. After each test it collects garbage
 * and allocates, which makes the detector look at what was collected.
 */
public final class LeakCheck implements BeforeAllCallback, AfterEachCallback {

  private static final List<String> LEAKS = Collections.synchronizedList(new ArrayList<>());

  static {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
      @Override
      public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
        return new Recording<>(resource, samplingInterval);
      }
    });
  }

  private static final class Recording<T> extends ResourceLeakDetector<T> {
    Recording(Class<T> resource, int samplingInterval) {
      super(resource, samplingInterval);
    }

    @Override
    protected boolean needReport() {
      return true;
    }

    @Override
    protected void reportTracedLeak(String type, String records) {
      LEAKS.add("LEAK: " + type + records);
    }

    @Override
    protected void reportUntracedLeak(String type) {
      LEAKS.add("LEAK: " + type);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // Loading this class installed the detector.
  }

  @Override
  public void afterEach(ExtensionContext context) {
    List<String> found = collect();
    if (!found.isEmpty()) {
      throw new AssertionError(found.size() + " Netty leak report(s) during " + context.getDisplayName() + ":\n"
          + String.join("\n", found));
    }
  }

  /**
   * Makes the detector look at collected buffers; returns (and forgets) what it reported. A
   * collected buffer reaches the detector's queue only after the JVM's reference handler thread
   * has enqueued it, which on a busy machine can lag the collection: each round waits for a
   * sentinel collected in the same GC to be enqueued before allocating, which is when the detector
   * polls its queue.
   */
  static List<String> collect() {
    for (int round = 0; round < 3; round++) {
      collectGarbageAndWaitForEnqueue();
      for (int i = 0; i < 64; i++) {
        ByteBuf a = Unpooled.directBuffer(8);
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer(8);
        ByteBuf c = Unpooled.buffer(8);
        a.release();
        b.release();
        c.release();
      }
    }
    synchronized (LEAKS) {
      List<String> found = new ArrayList<>(LEAKS);
      LEAKS.clear();
      return found;
    }
  }

  private static void collectGarbageAndWaitForEnqueue() {
    ReferenceQueue<Object> queue = new ReferenceQueue<>();
    WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
    System.gc();
    try {
      if (queue.remove(2_000) == null) {
        System.gc();
        queue.remove(2_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sentinel.clear();
  }
}
