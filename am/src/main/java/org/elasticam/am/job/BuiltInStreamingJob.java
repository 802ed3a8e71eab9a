package org.elasticam.am.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elasticam.api.BatchInput;
import org.elasticam.api.Stage;
import org.elasticam.api.StreamingJob;
import org.elasticam.api.TaskSpec;
import org.elasticam.workload.stream.BatchLoad;

/**
 * The built-in {@code streaming} job: each batch is one stage whose tasks share the batch's work
 * (records × work per record) evenly, as sleeping tasks (time that does not depend on this
 * machine's cores) or as tasks that burn a core ({@code --work cpu}).
 */
final class BuiltInStreamingJob implements StreamingJob {

  static final String CPU_TASK = "org.elasticam.executor.tasks.CpuTask";

  private final BatchLoad load;
  private final boolean cpu;

  BuiltInStreamingJob(BatchLoad load, boolean cpu) {
    this.load = load;
    this.cpu = cpu;
  }

  @Override
  public List<Stage> batch(BatchInput in) {
    long ms = load.taskMs(in.batch(), in.partitions());
    TaskSpec task = TaskSpec.of(Map.of("ms", String.valueOf(ms)));
    List<TaskSpec> tasks = new ArrayList<>();
    for (int i = 0; i < in.partitions(); i++) {
      tasks.add(task);
    }
    return List.of(new Stage(0, in.records() + " records", List.of(), cpu ? CPU_TASK : BuiltInJobs.SLEEP_TASK,
        tasks));
  }
}
