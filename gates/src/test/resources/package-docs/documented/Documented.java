package documented;

class Documented {}
