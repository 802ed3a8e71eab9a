package org.elasticam.am.yarn;

import java.util.List;
import org.elasticam.allocator.ledger.HeldContainer;

/** Where the allocator records its executors' containers, for a later attempt of the AM. */
public interface ContainerJournal {

  ContainerJournal NONE = new ContainerJournal() {
    @Override
    public void launching(List<HeldContainer> launches, int nextExecutorId) {}

    @Override
    public void completed(String containerId) {}
  };

  /** Executors about to be launched; returns once they are recorded. */
  void launching(List<HeldContainer> launches, int nextExecutorId);

  /** The container completed. */
  void completed(String containerId);
}
