package org.elasticam.allocator.reconcile;

import java.util.List;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.LocalityPreference;

/** What one reconcile round changes in the pending asks: cancels first, then new asks. */
public record AskChanges(List<Cancel> cancels, List<NewAsk> adds, String summary) {

  /** Withdraw a pending ask. */
  public record Cancel(AskId ask, String reason) {}

  /** Send a new ask. */
  public record NewAsk(LocalityPreference locality, AskOrigin origin) {}

  public static final AskChanges NONE = new AskChanges(List.of(), List.of(), "");

  public AskChanges {
    cancels = List.copyOf(cancels);
    adds = List.copyOf(adds);
  }

  public boolean isEmpty() {
    return cancels.isEmpty() && adds.isEmpty();
  }
}
