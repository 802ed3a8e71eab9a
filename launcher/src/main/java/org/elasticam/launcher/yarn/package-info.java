/** The YARN implementation of the launcher: the launch context and the NMClient pool. */
package org.elasticam.launcher.yarn;
