package org.elasticam.allocator.model;

/** One container request the AM has sent and not yet seen granted or cancelled. */
public record AskId(long value) implements Comparable<AskId> {

  @Override
  public int compareTo(AskId o) {
    return Long.compare(value, o.value);
  }

  @Override
  public String toString() {
    return "ask-" + value;
  }
}
