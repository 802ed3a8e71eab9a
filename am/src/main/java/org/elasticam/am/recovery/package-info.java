/**
 * Work-preserving AM restart: the journal each attempt keeps under the staging directory, and the
 * endpoint file through which executors that outlived an attempt find the next one.
 */
package org.elasticam.am.recovery;
