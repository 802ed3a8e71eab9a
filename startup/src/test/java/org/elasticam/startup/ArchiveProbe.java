package org.elasticam.startup;

/** A main for the start-up archive's tests: says whether its JVM shares classes. */
public final class ArchiveProbe {

  private ArchiveProbe() {}

  public static void main(String[] args) {
    System.out.println("vm.info=" + System.getProperty("java.vm.info"));
  }
}
