package org.elasticam.shuffle.service;

import org.apache.hadoop.io.nativeio.NativeIO;
import org.elasticam.shuffle.service.server.DescriptorOwnerCheck;
import org.elasticam.shuffle.service.server.OwnedFileOpener;

/**
 * The owner check with Hadoop's native library loaded: what SecureIOUtils.openForRandomRead does on
 * a secure cluster, an {@code fstat} of the opened descriptor ({@code NativeIO.POSIX.getFstat}, whose
 * uid-to-name lookups Hadoop caches). It calls NativeIO itself rather than SecureIOUtils because
 * SecureIOUtils checks only while UserGroupInformation says security is on (so
 * {@code elasticam.shuffle.ownerCheck=always} would check nothing on an insecure cluster) and
 * reports a wrong owner as a plain IOException the server could not tell from a disk error.
 */
final class NativeOwnerCheck {

  private NativeOwnerCheck() {}

  static OwnedFileOpener create() {
    return new DescriptorOwnerCheck(fd -> NativeIO.POSIX.getFstat(fd).getOwner(),
        "owner of the opened file read by Hadoop's native fstat");
  }
}
