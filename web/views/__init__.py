"""The pages' views: the public pages (``pages``) and the referee's hand entry (``entry``)."""
