package org.elasticam.conf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/** Thrown when configuration is invalid; carries every broken rule, not just the first. */
public final class ConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<ConfigProblem> problems;

  public ConfigException(List<ConfigProblem> problems) {
    super(render(problems));
    this.problems = Collections.unmodifiableList(new ArrayList<>(problems));
  }

  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String render(List<ConfigProblem> problems) {
    if (problems.size() == 1) {
      return "invalid configuration: " + problems.get(0).message();
    }
    return "invalid configuration (" + problems.size() + " problems):\n  "
        + problems.stream().map(ConfigProblem::message).collect(Collectors.joining("\n  "));
  }
}
