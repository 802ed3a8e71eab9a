package org.elasticam.allocator.plan;

import java.util.ArrayList;
import java.util.List;

/** The actions one decision produced, in the order the adapters must apply them. */
public record Plan(List<Action> actions) {

  public static final Plan EMPTY = new Plan(List.of());

  public Plan {
    actions = List.copyOf(actions);
  }

  public boolean isEmpty() {
    return actions.isEmpty();
  }

  /** The actions of one type, in order. */
  public <A extends Action> List<A> all(Class<A> type) {
    List<A> out = new ArrayList<>();
    for (Action a : actions) {
      if (type.isInstance(a)) {
        out.add(type.cast(a));
      }
    }
    return out;
  }

  public Plan then(Plan next) {
    if (next.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return next;
    }
    List<Action> all = new ArrayList<>(actions);
    all.addAll(next.actions);
    return new Plan(all);
  }
}
