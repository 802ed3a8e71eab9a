package org.elasticam.am.driver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.elasticam.rpc.journal.JournalMapOutput;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.recovery.Resumption;
import org.elasticam.rpc.journal.JournalStage;
import org.elasticam.rpc.journal.StreamProgress;

/**
 * What a new attempt of the AM starts from after a restart: the stages the earlier attempts
 * completed (with where their shuffle output lives) and the executors that outlived them, which
 * are coming back to this attempt's control plane.
 *
 * @param completedStages in the order they completed
 * @param runningStages stages that were running, with the tasks that had succeeded in them
 * @param survivors executor ids whose containers the ResourceManager kept for this attempt
 * @param reregisterTimeout how long survivors have to re-register before they are released
 * @param stream for a streaming job, the batches done and when the stream began (default instance: none)
 */
public record Recovery(List<JournalStage> completedStages, List<JournalStage> runningStages, Set<String> survivors,
    Duration reregisterTimeout, StreamProgress stream) {

  public Recovery {
    completedStages = List.copyOf(completedStages);
    runningStages = List.copyOf(runningStages);
    survivors = Set.copyOf(survivors);
  }

  /** The journal's record of a completed stage and where its map outputs are. */
  static JournalStage stage(int stageId, List<MapOutputs.Output> outputs, long completedAtMs) {
    JournalStage.Builder b = JournalStage.newBuilder().setStageId(stageId).setCompletedAtMs(completedAtMs);
    for (int m = 0; m < outputs.size(); m++) {
      MapOutputs.Output o = outputs.get(m);
      if (o != null) {
        b.addOutputs(output(m, o));
      }
    }
    return b.build();
  }

  static JournalMapOutput output(int mapId, MapOutputs.Output o) {
    return JournalMapOutput.newBuilder().setMapId(mapId).setExecutorId(o.executorId()).setHost(o.host())
        .setPort(o.port()).addAllLocalDirs(o.localDirs()).setExternal(o.external()).build();
  }

  /** What the engine starts from. */
  org.elasticam.engine.recovery.Restarted restarted() {
    return new org.elasticam.engine.recovery.Restarted(recorded(completedStages), recorded(runningStages), survivors,
        reregisterTimeout, stream.getStartMs(), stream.getBatchesDone());
  }

  /** The engine's journal entries, written to {@code j} in the journal's protobuf form. */
  static org.elasticam.engine.recovery.JobJournal journal(Journal j) {
    return new org.elasticam.engine.recovery.JobJournal() {
      @Override
      public void stageCompleted(int stageId, List<MapOutputs.Output> outputs, long completedAtMs) {
        j.stageCompleted(stage(stageId, outputs, completedAtMs));
      }

      @Override
      public void taskSucceeded(int stageId, int task, MapOutputs.Output output) {
        j.taskSucceeded(stageId, task, output == null ? null : output(task, output));
      }

      @Override
      public void streamProgress(long startMs, int batchesDone) {
        j.streamProgress(StreamProgress.newBuilder().setStartMs(startMs).setBatchesDone(batchesDone).build());
      }
    };
  }

  /** The journal's stages as the engine reads them. */
  static List<Resumption.RecordedStage> recorded(List<JournalStage> stages) {
    List<Resumption.RecordedStage> out = new ArrayList<>();
    for (JournalStage s : stages) {
      List<Resumption.RecordedOutput> outputs = new ArrayList<>();
      s.getOutputsList().forEach(o -> outputs.add(new Resumption.RecordedOutput(o.getMapId(), output(o))));
      out.add(new Resumption.RecordedStage(s.getStageId(), s.getCompletedAtMs(), List.copyOf(s.getDoneTasksList()),
          outputs));
    }
    return out;
  }

  static MapOutputs.Output output(JournalMapOutput o) {
    return new MapOutputs.Output(o.getExecutorId(), o.getHost(), o.getPort(), new ArrayList<>(o.getLocalDirsList()),
        o.getExternal());
  }

  /** Where the driver records what a later attempt needs. */
  public interface Journal {
    Journal NONE = s -> { };

    /** A stage completed (or re-ran its lost maps): its output locations as they are now. */
    void stageCompleted(JournalStage stage);

    /**
     * A task of a stage not yet completed succeeded; {@code output} is where its shuffle output
     * is, null when its stage writes none.
     */
    default void taskSucceeded(int stageId, int task, JournalMapOutput output) {}

    /** A streaming job finished a batch. */
    default void streamProgress(StreamProgress progress) {}
  }
}
