package org.elasticam.allocator.model;

import java.util.Objects;

/** A YARN container, by the text of its container id; the core never sees Hadoop's types. */
public record ContainerRef(String id) implements Comparable<ContainerRef> {

  public ContainerRef {
    Objects.requireNonNull(id, "container id");
  }

  @Override
  public int compareTo(ContainerRef o) {
    return id.compareTo(o.id);
  }

  @Override
  public String toString() {
    return id;
  }
}
