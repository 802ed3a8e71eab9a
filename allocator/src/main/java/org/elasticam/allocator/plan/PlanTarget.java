package org.elasticam.allocator.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.allocator.plan.Action.AddAsk;
import org.elasticam.allocator.plan.Action.CancelAsk;

/**
 * What applies a plan: the AM's YARN adapter or the simulator's. {@link #apply} hands it the
 * actions one by one, in the plan's order, then the asks the plan added and cancelled at once (one
 * event and one metric update per group, however many asks), so both adapters see a plan the same
 * way and differ only in what each action does to their ResourceManager.
 */
public interface PlanTarget {

  void addAsk(AddAsk add);

  void cancelAsk(CancelAsk cancel);

  void grantMatched(Action.GrantMatched matched);

  void launch(Action.LaunchExecutor launch);

  void release(Action.ReleaseContainer release);

  void updateExclusions(Action.UpdateExclusions update);

  void containerCompleted(Action.ContainerCompleted completed);

  void failApplication(Action.FailApplication fail);

  void warn(Action.Warn warn);

  /** After the actions: the asks added, grouped by the hosts they name (in order), and those cancelled. */
  void requestsChanged(Map<List<String>, List<AddAsk>> added, List<CancelAsk> cancelled);

  /** Applies {@code plan} to {@code target}. */
  static void apply(Plan plan, PlanTarget target) {
    Map<List<String>, List<AddAsk>> added = new LinkedHashMap<>();
    List<CancelAsk> cancelled = new ArrayList<>();
    for (Action a : plan.actions()) {
      if (a instanceof AddAsk add) {
        target.addAsk(add);
        added.computeIfAbsent(add.locality().hosts(), k -> new ArrayList<>()).add(add);
      } else if (a instanceof CancelAsk cancel) {
        target.cancelAsk(cancel);
        cancelled.add(cancel);
      } else if (a instanceof Action.GrantMatched m) {
        target.grantMatched(m);
      } else if (a instanceof Action.LaunchExecutor l) {
        target.launch(l);
      } else if (a instanceof Action.ReleaseContainer r) {
        target.release(r);
      } else if (a instanceof Action.UpdateExclusions u) {
        target.updateExclusions(u);
      } else if (a instanceof Action.ContainerCompleted c) {
        target.containerCompleted(c);
      } else if (a instanceof Action.FailApplication f) {
        target.failApplication(f);
      } else if (a instanceof Action.Warn w) {
        target.warn(w);
      }
    }
    target.requestsChanged(added, cancelled);
  }
}
