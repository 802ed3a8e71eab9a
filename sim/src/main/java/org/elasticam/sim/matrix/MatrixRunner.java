package org.elasticam.sim.matrix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.elasticam.sim.PolicyHarness;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceFormatException;

/**
 * Runs matrix cases: each policy, the oracle and its start-aware bound on the case's workload
 * under its conditions, in the simulator. Recorded traces come from one directory; synthetic ones
 * are generated. Each workload is read or generated once.
 */
public final class MatrixRunner {

  static final String TRACE_SUFFIX = ".trace.jsonl";

  private final Path traceDir;
  private final List<String> policies;
  private final Map<String, Trace> loaded = new ConcurrentHashMap<>();

  /** @param policies the policies to run on every case, as {@code simulate --policy} names them */
  public MatrixRunner(Path traceDir, List<String> policies) {
    this.traceDir = traceDir;
    this.policies = List.copyOf(policies);
  }

  /** The recorded traces' names in {@code dir}, sorted; none when it does not exist. */
  public static List<String> traceNames(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(TRACE_SUFFIX))
          .map(n -> n.substring(0, n.length() - TRACE_SUFFIX.length())).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public CaseResult run(MatrixCase c) {
    return run(c, null);
  }

  /**
   * Runs the case's policies; with an earlier result of the same case, the figures of every other
   * policy (and of the oracle) are taken from it instead of run again — for trying a change of one
   * policy against the others' figures at the same commit of the simulator.
   */
  public CaseResult run(MatrixCase c, CaseResult earlier) {
    Map<String, CaseResult.Figures> out = new LinkedHashMap<>();
    if (earlier != null) {
      if (!earlier.matrixCase().equals(c)) {
        throw new IllegalArgumentException("an earlier result of another case: " + earlier.matrixCase().id());
      }
      out.putAll(earlier.byPolicy());
    }
    out.putAll(runPolicies(c).byPolicy());
    if (!out.containsKey(MatrixReport.BOUND)) {
      for (PolicyHarness.Outcome o : harness(c).oracleAndBound(workload(c.workload()), c.workload())) {
        out.put(o.policy(), figures(o));
      }
    }
    return new CaseResult(c, out);
  }

  /** Only the policies, without the oracle and its bound: for the CI guard, which judges against {@code spark}. */
  public CaseResult runPolicies(MatrixCase c) {
    Trace trace = workload(c.workload());
    PolicyHarness h = harness(c);
    Map<String, CaseResult.Figures> out = new LinkedHashMap<>();
    for (String p : policies) {
      out.put(p, figures(h.run(trace, c.workload(), p)));
    }
    return new CaseResult(c, out);
  }

  private static PolicyHarness harness(MatrixCase c) {
    return PolicyHarness.withConf(c.conditions().conf(), c.conditions().world());
  }

  private static CaseResult.Figures figures(PolicyHarness.Outcome o) {
    return new CaseResult.Figures(o.makespanMs(), o.executorMs(), o.idleExecutorMs(), o.peakExecutors());
  }

  /** A recorded trace by name, or a synthetic one ({@code family#seed}). */
  Trace workload(String name) {
    return loaded.computeIfAbsent(name, n -> {
      int hash = n.indexOf('#');
      if (hash > 0) {
        return SyntheticWorkloads.generate(n.substring(0, hash), Long.parseLong(n.substring(hash + 1)));
      }
      try {
        return Trace.read(traceDir.resolve(n + TRACE_SUFFIX));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (TraceFormatException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    });
  }
}
