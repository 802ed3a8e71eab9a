package org.elasticam.am;

import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.BATCHES_DONE;
import static org.elasticam.report.events.EventFields.CONTAINERS_KEPT;
import static org.elasticam.report.events.EventFields.EXECUTORS_ADOPTED;
import static org.elasticam.report.events.EventFields.JOURNAL_FOUND;
import static org.elasticam.report.events.EventFields.STAGES_RECOVERED;
import static org.elasticam.report.events.EventFields.TASKS_DONE_IN_RUNNING_STAGES;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.elasticam.allocator.ledger.HeldContainer;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.am.driver.Recovery;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.events.ExecutorSeconds;
import org.elasticam.am.recovery.RecoveryJournal;
import org.elasticam.am.yarn.YarnAllocator;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.YarnKeys;
import org.elasticam.report.events.Event;
import org.elasticam.rpc.journal.AmJournal;
import org.elasticam.rpc.journal.JournalStage;
import org.elasticam.rpc.journal.StreamProgress;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an AM attempt takes over from the earlier ones when the application may have more than
 * one: the journal they wrote (stages completed, where their output is, the executors), the
 * containers the ResourceManager kept, and the journal this attempt writes for the next.
 */
final class AmRestart {

  private static final Logger LOG = LoggerFactory.getLogger(AmRestart.class);
  /** Task and stage completions reach the journal on disk together, at most this late. */
  private static final Duration JOURNAL_COALESCE = Duration.ofMillis(200);

  /**
   * This attempt's journal, and what it takes over from the earlier ones.
   *
   * @param journal null when the application has a single attempt
   * @param recovery null on a first attempt, or when the earlier one left no journal
   */
  record Restart(RecoveryJournal journal, Recovery recovery) {}

  private final Configuration conf;
  private final ElasticConf elastic;
  private final AmEnvironment env;

  AmRestart(Configuration conf, ElasticConf elastic, AmEnvironment env) {
    this.conf = conf;
    this.elastic = elastic;
    this.env = env;
  }

  /** Whether a new attempt of this AM keeps the executors: the application may have more than one. */
  boolean recoverable() {
    return elastic.getOptional(YarnKeys.MAX_APP_ATTEMPTS).orElse(1) > 1;
  }

  /** What the earlier attempts journaled; empty on a first attempt, or when there is nothing to read. */
  Optional<AmJournal> previousJournal() {
    if (env.attempt().getAttemptId() <= 1 || !recoverable()) {
      return Optional.empty();
    }
    try {
      return RecoveryJournal.read(conf, env.staging());
    } catch (IOException e) {
      LOG.warn("Cannot read the journal of the earlier attempt; starting the job over: {}", e.toString());
      return Optional.empty();
    }
  }

  /** Event loop: adopts what the ResourceManager kept and opens this attempt's journal. */
  Restart resume(RegisterApplicationMasterResponse reg, Optional<AmJournal> previous, YarnAllocator allocator,
      ExecutorSeconds executorSeconds, EventLog events, Scheduler loop) throws IOException {
    if (!recoverable()) {
      return new Restart(null, null);
    }
    int attempt = env.attempt().getAttemptId();
    List<org.apache.hadoop.yarn.api.records.Container> kept = reg.getContainersFromPreviousAttempts();
    Map<String, HeldContainer> known = new LinkedHashMap<>();
    previous.ifPresent(p -> p.getExecutorsList().forEach(e -> known.put(e.getContainerId(), new HeldContainer(
        new ContainerRef(e.getContainerId()), new ExecutorId(e.getExecutorId()), e.getHost(),
        HeldContainer.State.RUNNING, e.getGrantedAtMs(), e.getGrantedAtMs()))));
    int nextId = previous.map(AmJournal::getNextExecutorId).orElse(1);
    List<HeldContainer> adopted = attempt > 1 ? allocator.adopt(kept, known, nextId) : List.of();
    previous.ifPresent(p -> executorSeconds.carryOver(p.getCompletedExecutorMs()));
    adopted.forEach(c -> executorSeconds.allocated(c.container().id(), c.grantedAtMs()));
    List<JournalStage> stagesDone = previous.map(AmJournal::getCompletedStagesList).orElse(List.of());
    List<JournalStage> stagesRunning = previous.map(AmJournal::getRunningStagesList).orElse(List.of());
    StreamProgress stream = previous.map(AmJournal::getStream).orElse(StreamProgress.getDefaultInstance());
    RecoveryJournal journal = RecoveryJournal.start(conf, env.staging(), attempt,
        allocator.core().ledger().nextExecutorId(), adopted.stream().map(RecoveryJournal::entry).toList(),
        stagesDone, stagesRunning, stream, executorSeconds::completedMs);
    journal.coalesceOn(r -> loop.schedule(JOURNAL_COALESCE, r));
    journal.retryOn(loop);
    allocator.recordTo(journal);
    if (attempt <= 1) {
      return new Restart(journal, null);
    }
    java.util.Set<String> survivors = new java.util.HashSet<>();
    adopted.forEach(c -> survivors.add(c.executor().toString()));
    LOG.info("Attempt {} of the ApplicationMaster: the ResourceManager kept {} container(s); {} executor(s) adopted,"
        + " {} stage(s) completed before the restart{}", attempt, kept.size(), adopted.size(), stagesDone.size(),
        previous.isPresent() ? "" : " (no journal found: the job starts over)");
    events.write(Event.AM_RECOVERED, ATTEMPT, attempt, CONTAINERS_KEPT, kept.size(), EXECUTORS_ADOPTED,
        adopted.stream().map(c -> c.executor().toString()).toList(), STAGES_RECOVERED,
        stagesDone.stream().map(JournalStage::getStageId).toList(), TASKS_DONE_IN_RUNNING_STAGES,
        stagesRunning.stream().collect(java.util.stream.Collectors.toMap(s -> String.valueOf(s.getStageId()),
            JournalStage::getDoneTasksCount, (a, b) -> a, java.util.TreeMap::new)),
        BATCHES_DONE, stream.getBatchesDone(), JOURNAL_FOUND, previous.isPresent());
    return new Restart(journal, new Recovery(stagesDone, stagesRunning, survivors,
        elastic.get(ExecutorKeys.REREGISTER_TIMEOUT), stream));
  }
}
