package org.elasticam.am.job;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elasticam.api.Job;
import org.elasticam.api.Stage;
import org.elasticam.api.StreamingJob;
import org.elasticam.api.TaskSpec;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.engine.job.StreamingPlan;
import org.elasticam.engine.job.TracePlan;

/** Turns a {@link JobSpec} into a {@link JobPlan}, in the ApplicationMaster. */
public final class BuiltInJobs {

  /** The built-in task of sleep and trace jobs, in the executor. */
  public static final String SLEEP_TASK = TracePlan.SLEEP_TASK;

  private BuiltInJobs() {}

  /**
   * @param clusterHosts the cluster's hosts, for mapping a trace's recorded hosts
   * @param conf the cluster's configuration, for the file systems a job reads and writes
   * @throws Exception when a user job cannot be loaded or planned; the message is for the user
   */
  public static JobPlan plan(JobSpec spec, List<String> clusterHosts, org.apache.hadoop.conf.Configuration conf)
      throws Exception {
    return switch (spec.kind()) {
      case SLEEP -> new DagPlan(sleepStages(spec));
      case WORDCOUNT -> WordCountPlan.plan(spec);
      case TRACE -> TracePlan.of(Path.of(spec.required("file")), spec.number("time-scale", 1), clusterHosts);
      case STREAMING -> {
        BatchLoad load = load(spec, spec.nonNegative("work-per-record-us", 1000));
        yield new StreamingPlan(new BuiltInStreamingJob(load, spec.option("work").orElse("sleep").equals("cpu")),
            load, spec.positive("batches", 1), spec.partitionsOption(), spec.required("rate"));
      }
      case USER -> spec.isStreaming() ? userStreaming(spec) : new DagPlan(userStages(spec, userObject(spec), conf));
    };
  }

  /** The rate profile and batch interval of a streaming job; a {@code file:} profile is read from the working dir. */
  private static BatchLoad load(JobSpec spec, long workPerRecordUs) {
    RateProfile rate = RateProfile.parse(spec.required("rate"), Path.of("."));
    return new BatchLoad(rate, spec.positive("batch-ms", 1000), workPerRecordUs);
  }

  private static StreamingPlan userStreaming(JobSpec spec) throws Exception {
    Object job = userObject(spec);
    if (!(job instanceof StreamingJob s)) {
      throw new IllegalArgumentException(job.getClass().getName() + " does not implement "
          + StreamingJob.class.getName() + " (the streaming options --batch-ms, --batches and --rate need one)");
    }
    s.init(spec.userArgs().toArray(new String[0]));
    return new StreamingPlan(s, load(spec, 0), spec.positive("batches", 1), spec.partitionsOption(),
        spec.required("rate"));
  }

  /** {@code --stages} stages run one after another, each of {@code --tasks} sleeping tasks. */
  public static List<Stage> sleepStages(JobSpec spec) {
    int stages = spec.positive("stages", 1);
    int tasks = spec.positive("tasks", 1);
    Map<String, String> params = Map.of("ms", String.valueOf(spec.nonNegative("task-ms", 1000)),
        "failRate", String.valueOf(spec.number("fail-rate", 0)), "seed", String.valueOf(spec.longOption("seed", 0)));
    List<Stage> out = new ArrayList<>();
    for (int s = 0; s < stages; s++) {
      Stage.Builder b = Stage.builder(s, "sleep " + s, SLEEP_TASK);
      if (s > 0) {
        b.parents(s - 1);
      }
      for (int t = 0; t < tasks; t++) {
        b.task(TaskSpec.of(params));
      }
      out.add(b.build());
    }
    return out;
  }

  /**
   * A user job planned with the classes of {@code loader}, as the client does before submitting:
   * the stages its {@code stages} returns, checked as the AM checks them.
   *
   * @throws IllegalArgumentException when the class is no job or the stages are invalid
   * @throws Exception what the job's own code threw
   */
  public static JobPlan planUserJob(JobSpec spec, ClassLoader loader, org.apache.hadoop.conf.Configuration conf)
      throws Exception {
    Object job = newJob(Class.forName(spec.required("class"), true, loader));
    if (spec.isStreaming()) {
      if (!(job instanceof StreamingJob)) {
        throw new IllegalArgumentException(job.getClass().getName() + " does not implement "
            + StreamingJob.class.getName() + " (the streaming options --batch-ms, --batches and --rate need one)");
      }
      // Its batches depend on their input: nothing more to check before the first one.
      return null;
    }
    return new DagPlan(userStages(spec, job, conf));
  }

  /** The job's stages, their output directories made absolute where the submitter's relative paths point. */
  private static List<Stage> userStages(JobSpec spec, Object job, org.apache.hadoop.conf.Configuration conf)
      throws Exception {
    if (!(job instanceof Job j)) {
      throw new IllegalArgumentException(job.getClass().getName() + " does not implement " + Job.class.getName()
          + (job instanceof StreamingJob ? " (it is a StreamingJob: give --batch-ms, --batches and --rate)" : ""));
    }
    List<Stage> stages = new ArrayList<>();
    for (Stage s : j.stages(spec.userArgs().toArray(new String[0]))) {
      stages.add(s.output() == null ? s : s.withOutput(new Stage.Output(
          org.elasticam.io.JobPaths.resolve(s.output().dir(), conf).toString(), s.output().overwrite())));
    }
    return stages;
  }

  private static Object userObject(JobSpec spec) throws Exception {
    Path jar = Path.of(spec.required("jar"));
    if (!Files.isReadable(jar)) {
      throw new IOException("user jar " + jar + " is not readable");
    }
    // Kept open for the AM's life: the job's classes may load more classes while planning.
    URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, BuiltInJobs.class.getClassLoader());
    Class<?> c;
    try {
      c = Class.forName(spec.required("class"), true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("class " + spec.required("class") + " is not in " + jar.getFileName());
    }
    return newJob(c);
  }

  private static Object newJob(Class<?> c) throws Exception {
    if (!Job.class.isAssignableFrom(c) && !StreamingJob.class.isAssignableFrom(c)) {
      throw new IllegalArgumentException(c.getName() + " implements neither " + Job.class.getName() + " nor "
          + StreamingJob.class.getName());
    }
    try {
      return c.getDeclaredConstructor().newInstance();
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalArgumentException(c.getName() + " needs a public constructor without arguments");
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
