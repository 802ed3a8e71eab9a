package org.elasticam.io.commit;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How a stage's output directory is committed, in two steps, as Hadoop's file output committer
 * does it (its first algorithm) and for the same reason: a task's commit is one rename, so a task
 * whose executor dies mid-commit leaves either its whole output or none, and a restarted
 * ApplicationMaster finds the tasks committed before it in place.
 *
 * <pre>
 * OUT/_temporary/attempt-S-P-A-E/          one attempt's files (stage S, task P, attempt A, executor E)
 * OUT/_temporary/task-S-P/attempt-S-P-A-E/ the same files once that attempt committed
 * OUT/...                                  after the job's commit: every task's files, and _SUCCESS
 * </pre>
 *
 * A task's committed attempts each keep a directory of their own, and the job's commit takes one
 * of them per task, the latest attempt: a commit never deletes or renames onto another attempt's.
 * An attempt the driver counted lost may still be running, and commit after the task ran again and
 * committed; with one shared task directory its late commit would delete the files of the commit
 * the driver counted, or rename itself into that directory beside them.
 *
 * The executor commits or removes an attempt's directory ({@link #commitTask}, {@link #abortTask})
 * after the driver let that attempt commit; the ApplicationMaster prepares the directory at the
 * job's start ({@link #setupJob}) and at its end moves the tasks' files into place and writes
 * {@code _SUCCESS} ({@link #commitJob}), or removes the directory ({@link #abortJob}).
 */
public final class OutputCommit {

  public static final String TEMPORARY = "_temporary";
  public static final String SUCCESS = "_SUCCESS";

  private OutputCommit() {}

  /** The directory of one attempt's files. */
  public static Path attemptDir(Path out, int stage, int partition, int attempt, String executorId) {
    return new Path(new Path(out, TEMPORARY), "attempt-" + stage + "-" + partition + "-" + attempt + "-"
        + executorId.replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /** The directory of a task's committed attempts, each in a directory of its own. */
  public static Path taskDir(Path out, int stage, int partition) {
    return new Path(new Path(out, TEMPORARY), "task-" + stage + "-" + partition);
  }

  /**
   * Makes the attempt's files one of the task's committed attempts (one rename); the job's commit
   * takes the latest attempt of each task, so a task that ran again (its executor was lost after it
   * committed) replaces the earlier one. An attempt that wrote nothing commits an empty task.
   *
   * @return where the committed files are
   * @throws IOException when an attempt of that name committed already (nothing is moved)
   */
  public static Path commitTask(Configuration conf, Path out, int stage, int partition, Path attemptDir)
      throws IOException {
    Path task = taskDir(out, stage, partition);
    Path committed = new Path(task, attemptDir.getName());
    FileSystem fs = task.getFileSystem(conf);
    fs.mkdirs(task);
    if (fs.exists(committed)) {
      // A rename onto an existing directory would move the attempt inside it.
      throw new IOException("an attempt named " + attemptDir.getName() + " committed already");
    }
    if (fs.exists(attemptDir)) {
      if (!fs.rename(attemptDir, committed)) {
        throw new IOException("cannot rename " + attemptDir + " to " + committed);
      }
    } else {
      fs.mkdirs(committed);
    }
    return committed;
  }

  /** The attempt number in a directory named by {@link #attemptDir}, or -1 for another name. */
  static int attemptOf(String name) {
    String[] parts = name.split("-", 5);
    if (parts.length < 5 || !parts[0].equals("attempt")) {
      return -1;
    }
    try {
      return Integer.parseInt(parts[3]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Removes an attempt's files; an attempt that ends without committing leaves nothing. */
  public static void abortTask(Configuration conf, Path attemptDir) throws IOException {
    attemptDir.getFileSystem(conf).delete(attemptDir, true);
  }

  /**
   * Prepares the output directory at the job's start.
   *
   * @param firstAttempt false in a restarted ApplicationMaster: the directory is then this job's
   *     own, with the tasks its earlier attempts committed, and stays as it is
   * @throws OutputExistsException when it exists, on the first attempt, and is not to be overwritten
   */
  public static void setupJob(Configuration conf, Path out, boolean overwrite, boolean firstAttempt)
      throws IOException {
    FileSystem fs = out.getFileSystem(conf);
    if (firstAttempt && fs.exists(out)) {
      if (!overwrite) {
        throw new OutputExistsException(out);
      }
      if (!fs.delete(out, true)) {
        throw new IOException("cannot remove the output " + out + " to overwrite it");
      }
    }
    fs.mkdirs(new Path(out, TEMPORARY));
  }

  /**
   * Moves every task's files into the output directory (those of its latest committed attempt),
   * removes what other attempts left, and writes {@code _SUCCESS}.
   *
   * @return the files moved
   * @throws IOException when two tasks wrote a file of the same name (nothing is overwritten)
   */
  public static int commitJob(Configuration conf, Path out) throws IOException {
    FileSystem fs = out.getFileSystem(conf);
    Path temporary = new Path(out, TEMPORARY);
    int moved = 0;
    FileStatus[] entries;
    try {
      entries = fs.listStatus(temporary);
    } catch (FileNotFoundException e) {
      entries = new FileStatus[0];
    }
    for (FileStatus e : entries) {
      if (e.isDirectory() && e.getPath().getName().startsWith("task-")) {
        FileStatus latest = latestAttempt(fs.listStatus(e.getPath()));
        if (latest != null) {
          moved += merge(fs, latest.getPath(), out, e.getPath().getName());
        }
      }
    }
    fs.delete(temporary, true);
    fs.create(new Path(out, SUCCESS), true).close();
    return moved;
  }

  /** The committed attempt with the highest attempt number (then the greatest name), or null when none committed. */
  private static FileStatus latestAttempt(FileStatus[] committed) {
    FileStatus latest = null;
    int latestAttempt = -1;
    for (FileStatus c : committed) {
      String name = c.getPath().getName();
      int attempt = c.isDirectory() ? attemptOf(name) : -1;
      if (attempt > latestAttempt
          || (attempt >= 0 && attempt == latestAttempt && name.compareTo(latest.getPath().getName()) > 0)) {
        latest = c;
        latestAttempt = attempt;
      }
    }
    return latest;
  }

  /** Moves the contents of {@code from} into {@code to}, directories merged, files never replaced. */
  private static int merge(FileSystem fs, Path from, Path to, String task) throws IOException {
    int moved = 0;
    fs.mkdirs(to);
    for (FileStatus s : fs.listStatus(from)) {
      Path target = new Path(to, s.getPath().getName());
      if (s.isDirectory() && fs.exists(target)) {
        moved += merge(fs, s.getPath(), target, task);
      } else if (fs.exists(target)) {
        throw new IOException("two tasks wrote " + target + " (the second is " + task + "): give each task's files"
            + " names of their own, such as OutputFiles.partName");
      } else {
        if (!fs.rename(s.getPath(), target)) {
          throw new IOException("cannot rename " + s.getPath() + " to " + target);
        }
        moved++;
      }
    }
    return moved;
  }

  /** Removes the output directory and all the job wrote in it (it did not exist before the job, or was overwritten). */
  public static void abortJob(Configuration conf, Path out) throws IOException {
    out.getFileSystem(conf).delete(out, true);
  }

  /** The output directory exists and the job did not ask to overwrite it. */
  public static final class OutputExistsException extends IOException {
    private static final long serialVersionUID = 1L;

    public OutputExistsException(Path out) {
      super("the output " + out + " exists already: remove it, name another, or use Stage.Builder.overwritesOutput");
    }
  }
}
