package org.elasticam.am.client;

/** Words of the commands we print for a user to copy into a shell: quoted only where they must be. */
final class ShellWords {

  private ShellWords() {}

  static String quote(String word) {
    if (!word.isEmpty() && word.chars().allMatch(ShellWords::plain)) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private static boolean plain(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "_-./:=,@%+".indexOf(c) >= 0;
  }
}
