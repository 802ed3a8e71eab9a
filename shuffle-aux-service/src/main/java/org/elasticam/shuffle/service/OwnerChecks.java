package org.elasticam.shuffle.service;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.elasticam.conf.ShuffleKeys.OwnerCheck;
import org.elasticam.shuffle.service.server.OwnedFileOpener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses how the service opens map output files, once at init, and says so in one log line.
 * Insecure (and not {@code ownerCheck=always}): no check, as MapReduce's ShuffleHandler. Checked:
 * Hadoop's native fstat when libhadoop is loaded; else the same check through
 * {@code /proc/self/fd} when it works on this platform; else every file is refused (500), because
 * serving unchecked files on a secure cluster is what the check exists to prevent — Hadoop's own
 * SecureIOUtils refuses too ("Secure IO is not possible without native code extensions").
 */
final class OwnerChecks {

  private static final Logger LOG = LoggerFactory.getLogger(OwnerChecks.class);

  private OwnerChecks() {}

  /**
   * @param securityEnabled Hadoop security is on in the NodeManager
   * @param nativeLoaded Hadoop's NativeIO is available
   * @param procFd the check through /proc/self/fd, failing with why it cannot work here
   */
  static OwnedFileOpener choose(OwnerCheck setting, boolean securityEnabled, boolean nativeLoaded,
      Callable<OwnedFileOpener> procFd) {
    if (!securityEnabled && setting != OwnerCheck.ALWAYS) {
      LOG.info("Shuffle file owners are not checked: Hadoop security is off and elasticam.shuffle.ownerCheck=auto");
      return OwnedFileOpener.unchecked();
    }
    String why = securityEnabled ? "Hadoop security is on" : "elasticam.shuffle.ownerCheck=always";
    if (nativeLoaded) {
      LOG.info("Shuffle files must be owned by their application's user ({}); checked with Hadoop's native fstat",
          why);
      return NativeOwnerCheck.create();
    }
    try {
      OwnedFileOpener opener = procFd.call();
      LOG.info("Shuffle files must be owned by their application's user ({}); Hadoop's native library is not"
          + " loaded, so the opened file's owner is read through /proc/self/fd", why);
      return opener;
    } catch (Exception e) {
      String cause = e instanceof IOException ? e.getMessage() : e.toString();
      LOG.error("Shuffle files must be owned by their application's user ({}) but this NodeManager cannot check it:"
          + " Hadoop's native library is not loaded and {}; every fetch will be refused with 500 until libhadoop.so"
          + " is installed (java.library.path)", why, cause);
      return OwnedFileOpener.refusing("Hadoop's native library is not loaded and " + cause);
    }
  }
}
