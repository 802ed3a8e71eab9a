package org.elasticam.shuffle.protocol;

/** Reduce partitions {@code first..last}, inclusive; text {@code 5} or {@code 5-9}. */
public final class ReduceRange {

  private final int first;
  private final int last;

  public ReduceRange(int first, int last) {
    if (first < 0 || last < first) {
      throw new IllegalArgumentException("not a reduce range: " + first + "-" + last);
    }
    this.first = first;
    this.last = last;
  }

  public int first() {
    return first;
  }

  public int last() {
    return last;
  }

  public static ReduceRange of(int reduceId) {
    return new ReduceRange(reduceId, reduceId);
  }

  public int count() {
    return last - first + 1;
  }

  public String encode() {
    return first == last ? Integer.toString(first) : first + "-" + last;
  }

  /** @throws IllegalArgumentException unless the text is {@code n} or {@code n-m} with n <= m */
  public static ReduceRange decode(String text) {
    if (text == null) {
      throw new IllegalArgumentException("missing reduce");
    }
    int dash = text.indexOf('-');
    int first = ShuffleIds.parseId("reduce", dash < 0 ? text : text.substring(0, dash));
    int last = dash < 0 ? first : ShuffleIds.parseId("reduce", text.substring(dash + 1));
    if (last < first) {
      throw new IllegalArgumentException("bad reduce range: " + ShuffleIds.shorten(text));
    }
    return new ReduceRange(first, last);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ReduceRange)) {
      return false;
    }
    ReduceRange other = (ReduceRange) o;
    return first == other.first && last == other.last;
  }

  @Override
  public int hashCode() {
    int h = Integer.hashCode(first);
    return 31 * h + Integer.hashCode(last);
  }

  @Override
  public String toString() {
    return "ReduceRange[first=" + first + ", last=" + last + "]";
  }
}
