package org.elasticam.am.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.elasticam.am.job.JobSpec;
import org.junit.jupiter.api.Test;

class SubmitArgsTest {

  private static SubmitArgs parse(String... args) throws UsageException {
    return SubmitArgs.parse(List.of(args));
  }

  @Test
  void optionsAreTakenAnywhereBeforeTheJobsOwnArguments() throws Exception {
    SubmitArgs a = parse("--conf", "a=1", "sleep", "--tasks", "2", "--name", "n", "--conf", "b=2", "--detach");
    assertEquals(Map.of("a", "1", "b", "2"), a.conf());
    assertEquals("n", a.name());
    assertTrue(a.detach());
    assertEquals(JobSpec.parse("sleep", "--tasks", "2"), a.job());

    SubmitArgs u = parse("--jar", "j.jar", "--verbose", "--class", "a.B", "--conf", "c=3", "out", "x");
    assertEquals(Map.of("c", "3"), u.conf());
    assertTrue(u.verbose());
    assertEquals(List.of("out", "x"), u.job().userArgs());
  }

  @Test
  void theFlagsPeopleTypeAreSpellingsOfTheirKeys() throws Exception {
    SubmitArgs a = parse("--queue", "etl", "--principal", "me@EXAMPLE.COM", "--keytab", "/k/me.keytab", "sleep");
    assertEquals(Map.of("elasticam.yarn.queue", "etl", "elasticam.yarn.principal", "me@EXAMPLE.COM",
        "elasticam.yarn.keytab", "/k/me.keytab"), a.conf());
  }

  @Test
  void aUserJobsArgumentsReachItUnchanged() throws Exception {
    List<String> hostile = List.of("$HOME", "$(echo x)", "`id`", "it's", "a \"b\"", "Grüße", "", "-x", "--");
    List<String> args = new java.util.ArrayList<>(List.of("--jar", "j.jar", "--class", "a.B$C", "--"));
    args.addAll(hostile);
    SubmitArgs a = SubmitArgs.parse(args);
    assertEquals("a.B$C", a.job().required("class"));
    assertEquals(hostile, a.job().userArgs());
    assertEquals(a.job(), JobSpec.parse(a.job().toArgs()), "the AM reads back what the client sends");
  }

  @Test
  void ourOptionAmongTheJobsArgumentsIsRefusedUnlessAfterDashes() throws Exception {
    UsageException e = assertThrows(UsageException.class,
        () -> parse("--jar", "j.jar", "--class", "a.B", "/out", "--conf", "x=y"));
    assertEquals("--conf comes after the job's own arguments (which start at '/out'): write it before them, or write"
        + " -- before the arguments to pass --conf to the job", e.getMessage());
    assertThrows(UsageException.class, () -> parse("--jar", "j.jar", "--class", "a.B", "/out", "--rate", "3"));
    SubmitArgs passed = parse("--jar", "j.jar", "--class", "a.B", "--", "/out", "--conf", "x=y");
    assertEquals(List.of("/out", "--conf", "x=y"), passed.job().userArgs());
    assertTrue(passed.conf().isEmpty());
    assertFalse(parse("--jar", "j.jar", "--class", "a.B", "--", "--help").help(), "the job's own --help");
  }

  @Test
  void helpWhereverItStandsBeforeTheArguments() throws Exception {
    assertTrue(parse("--help").help());
    assertTrue(parse("sleep", "-h").help());
    assertTrue(parse("--jar", "j.jar", "--help").help());
  }

  @Test
  void mistakesAreOneLine() {
    assertEquals("--conf takes key=value, got 'x'", assertThrows(UsageException.class, () -> parse("--conf", "x", "sleep"))
        .getMessage());
    assertEquals("--queue needs a value", assertThrows(UsageException.class, () -> parse("sleep", "--queue"))
        .getMessage());
    assertEquals("sleep takes no arguments of its own, got 'x' after --",
        assertThrows(UsageException.class, () -> parse("sleep", "--", "x")).getMessage());
  }
}
