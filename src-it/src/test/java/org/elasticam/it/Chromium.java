package org.elasticam.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real browser for the tests that check pages render: headless Chromium (Debian package
 * {@code chromium}), each call a fresh process with its own profile.
 */
final class Chromium {

  private final Path binary;
  private final Path profiles;

  private Chromium(Path binary, Path profiles) {
    this.binary = binary;
    this.profiles = profiles;
  }

  /** The browser on PATH, if there is one. */
  static Optional<Chromium> find(Path work) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(new Chromium(p, work));
        }
      }
    }
    return Optional.empty();
  }

  /** The page's DOM after the browser parsed and laid it out. */
  String dumpDom(String url) throws Exception {
    return run(url, "--dump-dom").out();
  }

  /** A PNG of the page at a desktop width. */
  Path screenshot(String url, Path png) throws Exception {
    Files.createDirectories(png.getParent());
    Files.deleteIfExists(png);
    Output o = run(url, "--screenshot=" + png.toAbsolutePath(), "--window-size=1100,1600", "--hide-scrollbars");
    if (!Files.exists(png)) {
      // Chromium exits 0 when the page did not load ("Page load failed: …" in its error output).
      throw new IOException("chromium made no screenshot of " + url + ": "
          + o.err().lines().filter(l -> !l.contains(":ERROR:dbus/")).collect(java.util.stream.Collectors.joining("\n")));
    }
    return png;
  }

  private record Output(String out, String err) {}

  private Output run(String url, String... what) throws Exception {
    Path profile = Files.createTempDirectory(Files.createDirectories(profiles), "chromium-");
    List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--user-data-dir=" + profile));
    cmd.addAll(List.of(what));
    cmd.add(url);
    Path err = profile.resolve("stderr.txt");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("chromium did not finish with " + url);
    }
    if (p.exitValue() != 0) {
      throw new IOException("chromium exited " + p.exitValue() + " on " + url + ": " + Files.readString(err));
    }
    return new Output(new String(out, StandardCharsets.UTF_8), Files.readString(err));
  }
}
