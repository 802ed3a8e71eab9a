package org.elasticam.allocator.model;

/** An executor's id within its application: 1, 2, 3, … in launch order, never reused. */
public record ExecutorId(int value) implements Comparable<ExecutorId> {

  public ExecutorId {
    if (value <= 0) {
      throw new IllegalArgumentException("executor ids start at 1: " + value);
    }
  }

  public static ExecutorId parse(String text) {
    return new ExecutorId(Integer.parseInt(text.trim()));
  }

  @Override
  public int compareTo(ExecutorId o) {
    return Integer.compare(value, o.value);
  }

  @Override
  public String toString() {
    return String.valueOf(value);
  }
}
