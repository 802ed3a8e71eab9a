package org.elasticam.allocator.plan;

import java.util.List;
import java.util.Map;
import org.elasticam.allocator.exit.ExitVerdict;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.allocator.matching.GrantMatcher;

/**
 * One thing the adapters must do, or learn, as the result of a decision. Each action carries its
 * reason, in words a user can read in the log.
 */
public sealed interface Action {

  /** Send a new container request. */
  record AddAsk(AskId ask, LocalityPreference locality, AskOrigin origin, String reason) implements Action {}

  /** Withdraw a container request that is no longer wanted. */
  record CancelAsk(AskId ask, String reason) implements Action {}

  /** Give a container back to the ResourceManager; kills its executor if one runs there. */
  record ReleaseContainer(ContainerRef container, ExecutorId executor, String reason) implements Action {}

  /**
   * A granted container was paired with a pending ask (or with none): the adapter must withdraw
   * that ask from its client, since YARN already counted it as satisfied.
   */
  record GrantMatched(ContainerRef container, String host, PendingAsk ask, GrantMatcher.Level level)
      implements Action {}

  /** Start an executor in a granted container. */
  record LaunchExecutor(ExecutorId executor, ContainerRef container, String host) implements Action {}

  /**
   * Change the nodes the ResourceManager must not give us, as differences from what it was told.
   *
   * @param excludedUntilMs for nodes this allocator excluded itself: when the exclusion ends
   */
  record UpdateExclusions(List<String> additions, List<String> removals, Map<String, Long> excludedUntilMs)
      implements Action {}

  /** A container of ours completed; says whether it counted as a failure and why. */
  record ContainerCompleted(ContainerRef container, ExecutorId executor, String host, int exitStatus,
      boolean releasedByUs, ExitVerdict verdict) implements Action {}

  /** Too many executors failed: the application must stop with this diagnostic. */
  record FailApplication(String diagnostics) implements Action {}

  /** Something a user should see at WARN that needs no action. */
  record Warn(String message) implements Action {}
}
