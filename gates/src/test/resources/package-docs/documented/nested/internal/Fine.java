package documented.nested.internal;

class Fine {}
