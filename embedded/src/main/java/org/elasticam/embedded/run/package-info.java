/** {@code bin/elasticam run}: the embedded cluster plus the real client, in its own JVM. */
package org.elasticam.embedded.run;
