package org.elasticam.allocator.model;

/**
 * A completed container as the ResourceManager reports it.
 *
 * @param exitStatus YARN's exit status: a process exit code, or one of the negative
 *     {@code ContainerExitStatus} values (see {@code org.elasticam.allocator.exit.ExitStatus})
 */
public record ContainerExit(ContainerRef container, int exitStatus, String diagnostics) {

  public ContainerExit {
    diagnostics = diagnostics == null ? "" : diagnostics;
  }
}
